// No inline script: the page's Content-Security-Policy allows scripts from this server only.
//
// The session token lives in this tab, never in a cookie: a browser sends the cookies it keeps
// for 127.0.0.1 to every port there, so any other local server would receive one. Session
// storage belongs to this origin (scheme, host and port) and this tab: no other port can read
// it, a reload finds it, a new tab does not. The WebSocket carries it in its path.
const TOKEN_KEY = "workbench-token";

// The token from the printed URL (kept, then dropped from the address bar), or the one this
// tab kept; null when there is none.
function takeToken() {
  const url = new URL(window.location.href);
  const given = url.searchParams.get("token");
  if (given === null) {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch {
      return null; // storage turned off: only the printed URL works
    }
  }
  try {
    sessionStorage.setItem(TOKEN_KEY, given);
  } catch {
    return given; // storage turned off: the token stays in the address bar, so a reload works
  }
  url.searchParams.delete("token");
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  return given;
}

// Runs before textual.js's window.onload, which reads the WebSocket URL and connects.
document.addEventListener("DOMContentLoaded", () => {
  const terminal = document.getElementById("terminal");
  const token = takeToken();
  if (!token) {
    terminal.classList.remove("textual-terminal"); // textual.js connects each one: none here
    document.body.classList.add("-no-token");
  } else {
    terminal.dataset.sessionWebsocketUrl += "/" + encodeURIComponent(token);
    // A refused WebSocket closes without having opened: say why rather than "ended".
    const watch = new MutationObserver(() => {
      if (document.body.classList.contains("-closed")) {
        watch.disconnect(); // before touching the class again, which would call us again
        if (!terminal.classList.contains("-connected")) {
          document.body.classList.add("-refused");
        }
      }
    });
    watch.observe(document.body, { attributes: true, attributeFilter: ["class"] });
  }
  const startOver = () => {
    const url = new URL(window.location.href);
    url.searchParams.delete("delay");
    window.location.assign(url.pathname + url.search);
  };
  document.getElementById("restart").addEventListener("click", startOver);
  document.getElementById("start").addEventListener("click", startOver);
});
