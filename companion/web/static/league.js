// The league page (companion club serve): its live part is drawn by the server in the phone's language and
// fetched again every 2 seconds; a refresh that fails says so in the top bar and the next one tries again.
"use strict";

(() => {
  const { $, t, initTheme } = Companion;
  const REFRESH_MS = 2000;

  function showState(ok) {
    const badge = $("live");
    if (!badge) return;
    badge.classList.remove("hidden");
    badge.dataset.state = ok ? "live" : "offline";
    badge.textContent = ok ? t("live") : t("offline: retrying");
  }

  async function refresh(root) {
    try {
      const response = await fetch(root.dataset.refresh, { cache: "no-store" });
      if (!response.ok) throw new Error(String(response.status));
      // The server's own template, escaped there: the same HTML the first load drew.
      root.innerHTML = await response.text();
      showState(true);
    } catch (error) {
      showState(false);
    }
  }

  initTheme();
  const root = $("league-live");
  if (root) {
    showState(true);
    setInterval(() => { if (!document.hidden) refresh(root); }, REFRESH_MS);
  }
})();
