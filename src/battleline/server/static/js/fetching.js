// fetch, waiting out the server's rate limit. The server answers 429 with Retry-After when this
// client address has spent its request budget (limits.py: a token bucket per address, so every
// tab and every player behind one address share it). Such a request reached no route: nothing
// was read or sealed, so it is sent again after the pause the server names, a few times. A 429
// without Retry-After (a full chat, too many open streams) is a refusal, not a pause: returned.

const TRIES = 6;
const LONGEST_WAIT_S = 30;

const pause = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));

/** `fetch(url, options)`, sent again while the answer is 429 with a Retry-After. */
export async function fetchPaced(url, options) {
  for (let tries = 1; ; tries++) {
    const response = await fetch(url, options);
    const wait = Number(response.headers.get("Retry-After"));
    if (response.status !== 429 || !(wait > 0) || tries >= TRIES) return response;
    await pause(Math.min(wait, LONGEST_WAIT_S));
  }
}
