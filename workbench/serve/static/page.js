// No inline script: the page's Content-Security-Policy allows scripts from this server only.
document.addEventListener("DOMContentLoaded", () => {
  const startOver = () => {
    const url = new URL(window.location.href);
    url.searchParams.delete("delay");
    window.location.assign(url.pathname + url.search);
  };
  document.getElementById("restart").addEventListener("click", startOver);
  document.getElementById("start").addEventListener("click", startOver);
});
