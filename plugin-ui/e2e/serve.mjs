// Serves dist/ under /ui/ and forwards /api, /v3 and /actuator to the server, for the e2e run
// when the server does not serve the plugin itself yet (SDRS_UI_URL unset). Node's http only.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.map': 'application/json', '.woff2': 'font/woff2' };

export function serve(distDir, upstream) {
  const up = new URL(upstream);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (/^\/(api|v3|actuator)\//.test(url.pathname)) {
      const p = http.request({ host: up.hostname, port: up.port || 80, method: req.method, path: req.url,
        headers: { ...req.headers, host: up.host } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      p.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
      req.pipe(p);
      return;
    }
    if (url.pathname === '/' || url.pathname === '/ui') { res.writeHead(302, { location: '/ui/' }); res.end(); return; }
    if (!url.pathname.startsWith('/ui/')) { res.writeHead(404); res.end(); return; }
    let rel = decodeURIComponent(url.pathname.slice(4)) || 'index.html';
    const file = path.resolve(distDir, rel);
    if (!file.startsWith(path.resolve(distDir))) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/ui/`,
    close: () => new Promise((r) => server.close(r)),
  })));
}
