// The club's sign-in at a table: a player taps their name; a second tap signs them out again.
// The list is drawn by the server; this page only sends taps and redraws from the answer.
"use strict";

(() => {
  const { $, el, t, initTheme } = Companion;
  $("live").classList.add("hidden"); // no live view of the table here

  function draw(club) {
    $("club-members").replaceChildren(...club.members.map((member) => el("li", {},
      el("button", { type: "button", "data-member": member.id, "aria-pressed": String(member.present),
        class: member.present ? "primary" : "" }, member.name))));
    $("club-present").textContent = club.present.length
      ? t("Signed in here: {names}", { names: club.present.join(", ") }) : "";
  }

  async function tap(button) {
    $("club-error").textContent = "";
    const present = button.getAttribute("aria-pressed") !== "true";
    try {
      const response = await fetch("/api/club/present", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ member: button.dataset.member, present }),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || t("the table answered {status}", { status: response.status }));
      draw(answer);
    } catch (error) {
      $("club-error").textContent = t("Not signed in: {reason}", { reason: error.message });
    }
  }

  initTheme();
  const list = $("club-members");
  if (list) {
    list.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-member]");
      if (button) tap(button);
    });
  }
})();
