// The public scoreboard: every view the table pushes is drawn whole; nothing here can act.
"use strict";

(() => {
  const { $, renderScoreboard, setTitle, initTheme, LiveTable, showConnection } = Companion;
  let shown = null;

  function render(view) {
    if (shown && view.id === shown.id) return;
    shown = view;
    setTitle(view);
    renderScoreboard($("scoreboard"), view);
    document.body.dataset.viewId = view.id;
    document.body.dataset.seq = view.seq;
  }

  initTheme();
  new LiveTable(render, showConnection).start();
})();
