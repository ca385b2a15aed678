// A team's hands page: show only the rows every filter accepts (the page works without it: all rows show).
"use strict";

(function () {
  const box = document.getElementById("hand-filters");
  if (!box) return;
  const rows = Array.from(document.querySelectorAll("#hands tr.hand"));
  const shown = document.getElementById("hands-shown");
  const value = (name) => box.querySelector(`[data-filter="${name}"]`);

  // "AK" or "A K": both ranks in the hand; "As" or "Kh Qh": those exact cards.
  function cardsMatch(cards, wanted) {
    const held = cards.split(" ");
    const words = wanted.trim().split(/[\s,]+/).filter(Boolean);
    if (words.length === 1 && /^[2-9TJQKA]{2}$/i.test(words[0])) {
      const [a, b] = words[0].toUpperCase();
      const ranks = held.map((c) => c[0]);
      return a === b ? ranks[0] === a && ranks[1] === a : ranks.includes(a) && ranks.includes(b);
    }
    return words.every((w) => held.some((c) => c.toLowerCase() === w.toLowerCase() || c[0] === w.toUpperCase()));
  }

  function apply() {
    const position = value("position").value;
    const cards = value("cards").value;
    const street = value("street").value;
    const showdown = value("showdown").value;
    const allin = value("allin").checked;
    const fault = value("fault").checked;
    const pot = parseInt(value("pot").value || "0", 10) || 0;
    let count = 0;
    for (const row of rows) {
      const d = row.dataset;
      const ok =
        (!position || d.position === position) &&
        (!cards.trim() || cardsMatch(d.cards, cards)) &&
        (!street || d.street === street) &&
        (!showdown || d.showdown === showdown) &&
        (!allin || d.allin === "yes") &&
        (!fault || d.fault === "yes") &&
        parseInt(d.pot, 10) >= pot;
      row.hidden = !ok;
      if (ok) count += 1;
    }
    shown.textContent = `${count} of ${rows.length} hands`;
  }

  box.addEventListener("input", apply);
  box.addEventListener("change", apply);
})();
