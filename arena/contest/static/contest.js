/* the contest's site: a page with work in progress refreshes itself; windows count down; an upload form
 * posts with its CSRF token in the X-CSRFToken header (arena/contest/web/pages.py, UploadsCarryToken).
 * Nothing here reads text from the page or from an answer as HTML. */
"use strict";

(function () {
  const refresh = Number(document.body.dataset.refresh || 0);
  if (refresh > 0) {
    window.setTimeout(function () {
      if (document.visibilityState === "visible") window.location.reload();
      else document.addEventListener("visibilitychange", function () { window.location.reload(); }, { once: true });
    }, refresh * 1000);
  }

  function left(ms) {
    if (ms <= 0) return "closed";
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return (h ? h + " h " : "") + m + " min " + (s % 60) + " s left";
  }

  async function upload(form, event) {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    const said = form.querySelector(".upload-status");
    button.disabled = true;
    said.textContent = "Uploading\u2026";
    try {
      const answer = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { "X-CSRFToken": form.elements.csrftoken.value },
        credentials: "same-origin",
        redirect: "manual",
      });
      if (answer.type === "opaqueredirect" || (answer.status >= 300 && answer.status < 400)) {
        window.location.assign(form.dataset.next);
        return;
      }
      said.textContent = "Refused (" + answer.status + "): " + (await answer.text()).slice(0, 500);
    } catch (error) {
      said.textContent = "The upload did not reach the site: " + error;
    }
    button.disabled = false;
  }
  for (const form of document.querySelectorAll("form[data-next]")) {
    form.addEventListener("submit", function (event) { upload(form, event); });
  }

  const clocks = Array.from(document.querySelectorAll(".countdown[data-until]"));
  function tick() {
    const now = Date.now();
    for (const clock of clocks) clock.textContent = left(Date.parse(clock.dataset.until) - now);
  }
  if (clocks.length) {
    tick();
    window.setInterval(tick, 1000);
  }
})();
