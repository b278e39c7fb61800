import TypeModel, { type TypeModelState } from '@/models/type';
import { createType, listTypes, removeType, updateType } from '@/services/type';
import { createModelRunner, deferred } from '@/testing/modelRunner';
import type { TypeRecord } from '#contract/type';

const inUse = () =>
  Object.assign(new Error('in use'), {
    response: {
      status: 409,
      data: { success: false, code: 409, msg: '该分类下还有内容，无法删除', data: null },
    },
  });

const type = (id: string, typeName: string): TypeRecord => ({
  _id: id.padStart(24, '0'),
  version: 1,
  typeName,
  createdAt: 1_700_000_000_000,
});
const idOf = (id: string) => id.padStart(24, '0');

const runner = (initial: Partial<TypeModelState> = {}) => createModelRunner(TypeModel, initial);

describe('type model', () => {
  it('init replaces the list with the types the server answers', async () => {
    const model = runner({ typeList: [type('9', 'old')] });
    model.provide(
      listTypes,
      jest.fn(async () => [type('1', 'HTML'), type('2', 'CSS')]),
    );

    await expect(model.run('init')).resolves.toBeUndefined();

    expect(model.state.typeList).toEqual([type('1', 'HTML'), type('2', 'CSS')]);
  });

  it('init keeps the list and hands the failure to its caller when the call fails', async () => {
    const model = runner({ typeList: [type('9', 'old')] });
    const failure = new Error('Network Error');
    model.provide(
      listTypes,
      jest.fn(async () => Promise.reject(failure)),
    );

    await expect(model.run('init')).rejects.toBe(failure);

    expect(model.state.typeList).toEqual([type('9', 'old')]);
  });

  it('add posts the name and appends the record the server returned', async () => {
    const model = runner({ typeList: [type('1', 'HTML')] });
    const post = model.provide(
      createType,
      jest.fn(async () => type('3', 'Go')),
    );

    await expect(model.run('add', 'Go')).resolves.toEqual(type('3', 'Go'));

    expect(post).toHaveBeenCalledWith('Go');
    expect(model.state.typeList).toEqual([type('1', 'HTML'), type('3', 'Go')]);
  });

  it('add does not append and hands the refusal to its caller when the server refuses', async () => {
    const model = runner({ typeList: [type('1', 'HTML')] });
    const refusal = new Error('409');
    model.provide(
      createType,
      jest.fn(async () => Promise.reject(refusal)),
    );

    await expect(model.run('add', 'HTML')).rejects.toBe(refusal);

    expect(model.state.typeList).toEqual([type('1', 'HTML')]);
  });

  it('delete removes the type only once the server has said yes', async () => {
    const call = deferred<void>();
    const model = runner({ typeList: [type('1', 'HTML'), type('2', 'CSS')] });
    const remove = model.provide(
      removeType,
      jest.fn(() => call.promise),
    );

    const running = model.run('delete', idOf('2'));
    await Promise.resolve();
    expect(remove).toHaveBeenCalledWith(idOf('2'));
    expect(model.state.typeList).toHaveLength(2);

    call.resolve();
    await expect(running).resolves.toBeUndefined();
    expect(model.state.typeList).toEqual([type('1', 'HTML')]);
  });

  it('delete keeps a type the server refuses to delete because it is in use', async () => {
    const model = runner({ typeList: [type('1', 'HTML'), type('2', 'CSS')] });
    const refusal = inUse();
    model.provide(
      removeType,
      jest.fn(async () => Promise.reject(refusal)),
    );

    await expect(model.run('delete', idOf('2'))).rejects.toBe(refusal);

    expect(model.state.typeList).toEqual([type('1', 'HTML'), type('2', 'CSS')]);
  });

  it('edit renames the type in place once the server accepted it', async () => {
    const model = runner({ typeList: [type('1', 'HTML'), type('2', 'CSS'), type('3', 'JS')] });
    const patch = model.provide(
      updateType,
      jest.fn(async () => type('2', 'CSS3')),
    );

    await expect(model.run('edit', { id: idOf('2'), typeName: 'CSS3', version: 1 })).resolves.toBeUndefined();

    expect(patch).toHaveBeenCalledWith(idOf('2'), 'CSS3', 1);
    expect(model.state.typeList).toEqual([type('1', 'HTML'), type('2', 'CSS3'), type('3', 'JS')]);
  });

  it('edit keeps the old name when the server refuses the rename', async () => {
    const model = runner({ typeList: [type('2', 'CSS')] });
    const refusal = new Error('409');
    model.provide(
      updateType,
      jest.fn(async () => Promise.reject(refusal)),
    );

    await expect(model.run('edit', { id: idOf('2'), typeName: 'HTML' })).rejects.toBe(refusal);

    expect(model.state.typeList).toEqual([type('2', 'CSS')]);
  });
});
