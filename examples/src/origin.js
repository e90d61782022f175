'use strict';
// An in-process stand-in for a web server: routes map a URL to a handler, every request is recorded.

function createOrigin(routes = {}) {
  const requests = [];
  async function fetcher(request) {
    requests.push(request);
    const handler = routes[request.url];
    if (handler === undefined)
      return { status: 404, body: 'not found', headers: { 'Content-Type': 'text/plain' } };
    return handler(request);
  }
  return { fetcher, requests };
}

module.exports = { createOrigin };
