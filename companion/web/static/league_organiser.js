// The organiser's page: sign in with the organiser's PIN (the same sign-in as a table's host), then edit the
// club's roster and re-read the broker's records. Every change carries the session's CSRF token.
"use strict";

(() => {
  const { $, t } = Companion;
  let csrf = null;

  function say(id, text) {
    $("error").textContent = id === "error" ? text : "";
    $("done").textContent = id === "done" ? text : "";
  }

  async function send(url, body) {
    const headers = { "Content-Type": "application/json" };
    if (csrf) headers["X-CSRF-Token"] = csrf;
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body || {}) });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error || t("the league refused ({status})", { status: response.status }));
    return answer;
  }

  async function loadSession() {
    const response = await fetch("/api/host/session", { cache: "no-store" });
    const session = await response.json();
    csrf = session.host ? session.csrf_token : null;
    return session.host;
  }

  $("sign-in-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await send("/api/host/sign-in", { pin: $("pin").value });
      location.reload();
    } catch (error) { say("error", error.message); }
  });

  $("add-member").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const member = await send("/api/organiser/members", { name: $("new-name").value });
      say("done", t("{name} joined the club", { name: member.name }));
      setTimeout(() => location.reload(), 600);
    } catch (error) { say("error", error.message); }
  });

  for (const form of document.querySelectorAll("form.rename")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const member = await send(`/api/organiser/members/${encodeURIComponent(form.dataset.member)}`,
          { name: form.elements.name.value });
        say("done", t("Renamed to {name}", { name: member.name }));
      } catch (error) { say("error", error.message); }
    });
  }

  $("rebuild").addEventListener("click", async () => {
    say("done", t("Reading the broker's records…"));
    try {
      const answer = await send("/api/organiser/rebuild");
      say("done", t("{added} records added; {games} games in the league", { added: answer.records_added, games: answer.games }));
    } catch (error) { say("error", error.message); }
  });

  loadSession().catch(() => {});
})();
