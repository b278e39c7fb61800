import { randomBytes } from 'node:crypto';

// Ids are 24 lowercase hex characters laid out like a MongoDB ObjectId (4 bytes of seconds,
// 5 random bytes, a 3-byte counter), so records imported from the reference keep their ids and
// new ids still sort by creation time.
const processRandom = randomBytes(5);
let counter = randomBytes(3).readUIntBE(0, 3);

export function newId(now: number = Date.now()): string {
  counter = (counter + 1) % 0xffffff;
  const buf = Buffer.alloc(12);
  buf.writeUInt32BE(Math.floor(now / 1000), 0);
  processRandom.copy(buf, 4);
  buf.writeUIntBE(counter, 9, 3);
  return buf.toString('hex');
}
