// How a game ended, told once: the outcome box above the table and each game's own end panel
// say it with these same words.

const joinAnd = (names) => (names.length < 2 ? names.join("")
  : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

// "You win!", "Ben wins!", "You and Ben share the win!", or why nobody won.
export function outcomeHeadline(view, seatName) {
  const outcome = view.outcome;
  if (!outcome) return view.table?.status === "aborted" ? "The game was aborted: nobody wins." : "";
  const winners = [...outcome.winners].sort((a, b) => Number(b === view.you) - Number(a === view.you));
  const names = winners.map((s) => (s === view.you ? "You" : seatName(s)));
  if (winners.length > 1) return `${joinAnd(names)} share the win!`;
  return winners[0] === view.you ? "You win!" : `${names[0]} wins!`;
}

// Who conceded, and what became of their seats: "Ana conceded." when that ended the game,
// otherwise the stand-in that played on.
export function concededNote(view, seatName) {
  const conceded = view.outcome?.conceded || [];
  if (!conceded.length) return "";
  const names = joinAnd(conceded.map((s) => (s === view.you ? "You" : seatName(s))));
  if (view.outcome.ended_by === "concession") return `${names} conceded.`;
  const bot = view.table?.stand_in_bot || "the bot";
  const seats = conceded.length > 1 ? "their seats" : conceded[0] === view.you ? "your seat" : "the seat";
  return `${names} conceded: the ${bot} played ${seats} to the end, ranked last.`;
}

// The stand-in at a seat whose person conceded or was suspended: "Casual bot stands in".
export function standInText(view, seat) {
  const s = view.table?.seats?.[seat];
  // A two-player concession ends the game: nobody played on.
  if (!s?.stand_in || view.outcome?.ended_by === "concession") return "";
  return `${view.table.stand_in_bot || "the bot"} ${view.table.status === "active" ? "plays" : "played"} this seat`;
}
