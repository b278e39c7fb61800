/**
 * A small page of a test, served at the server's own origin, standing in for the community site:
 * its buttons make the old client's calls with fetch and print each answer in #out. `body` holds
 * the controls, `script` their handlers, which call `call(method, url, body)` (the member's token,
 * once kept in `state.token`, goes with every call).
 */
export function sitePage(body: string, script: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>社区</title></head><body>
${body}<pre id="out"></pre>
<script>
const state = { token: null, userId: null, issueId: null };
const $ = (id) => document.getElementById(id);
async function call(method, url, body) {
  const headers = { 'content-type': 'application/json' };
  if (state.token) headers.authorization = 'Bearer ' + state.token;
  const res = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json();
  $('out').textContent = res.status + ' ' + JSON.stringify(json);
  return json;
}
${script}
</script></body></html>`;
}
