// The public scoreboard: every view the table pushes is drawn whole; nothing here can act.
"use strict";

(() => {
  const { $, renderScoreboard, setTitle, initTheme, LiveTable, showConnection, t } = Companion;
  let shown = null;

  function render(view) {
    if (shown && view.id === shown.id) return;
    shown = view;
    setTitle(view);
    renderScoreboard($("scoreboard"), view);
    document.body.dataset.viewId = view.id;
    document.body.dataset.seq = view.seq;
  }

  // Another phone joins by the address or its QR code (drawn by the Pi), asked for only when wanted.
  $("join").addEventListener("toggle", async () => {
    if (!$("join").open || $("join-qr").getAttribute("src")) return;
    $("join-url").textContent = $("join-url").href = `${location.origin}/`;
    try {
      const join = await (await fetch("/api/join")).json();
      if (join.url) $("join-url").textContent = $("join-url").href = join.url;
      if (join.mdns_host) $("join-name").textContent = ` ${t("(or {name})", { name: join.mdns_host })}`;
      $("join-qr").src = join.qr_svg || "/api/join/qr.svg";
    } catch (error) {
      $("join-qr").src = "/api/join/qr.svg";
    }
  });

  initTheme();
  new LiveTable(render, showConnection).start();
})();
