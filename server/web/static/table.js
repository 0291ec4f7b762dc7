// The player's own board on the play page: board.js draws it; this makes each pile,
// the stock, waste, reserve and foundations a button (tap, click, Enter or Space), marks
// the cards in hand, and turns a drag of cards (mouse or pen) into a drop on a target.

import { drawBoard, parseCard } from "./board.js";
import { PILE_KEYS, heldCount } from "./hand.js";

const DRAG_PX = 8;

function describe(card) {
  return card === undefined || card === null ? "" : `, top ${parseCard(card).label}`;
}

function makeTarget(node, target, label) {
  node.dataset.target = target;
  node.setAttribute("role", "button");
  node.tabIndex = 0;
  node.setAttribute("aria-label", label);
}

/** Every part of a drawn board that a tap can pick up or put cards on. */
function markTargets(root, board) {
  root.querySelectorAll(".tableau .pile").forEach((pile, i) => {
    const cards = board.tableau[i];
    const key = PILE_KEYS[i] ?? "";
    makeTarget(pile, `t${i}`, `pile ${i + 1}: ${cards.length} ${cards.length === 1 ? "card" : "cards"}${describe(cards.at(-1))}${key ? `, key ${key}` : ""}`);
    if (key) pile.prepend(Object.assign(document.createElement("span"), { className: "pile-key", textContent: key, ariaHidden: "true" }));
  });
  const stock = root.querySelector(".slot.stock");
  if (stock !== null) makeTarget(stock, "s", `stock: ${board.stock} face-down cards, key d`);
  const waste = root.querySelector(".slot.waste");
  if (waste !== null) makeTarget(waste, "w", `waste: ${board.waste.length} cards${describe(board.waste.at(-1))}, key w`);
  const reserve = root.querySelector(".slot.reserve");
  if (reserve !== null) makeTarget(reserve, "r", `reserve: ${board.reserve_hidden} face down${describe(board.reserve)}, key r`);
  root.querySelectorAll(".slot.foundation").forEach((slot, i) => {
    const top = board.foundations[i];
    makeTarget(slot, "f", `${slot.getAttribute("aria-label")}${top === null ? ", empty" : describe(top)}, key f`);
  });
}

/** The cards of a drawn board that the pick holds. */
function heldCards(root, pick) {
  if (pick.source === "t") {
    const cards = root.querySelectorAll(`[data-target="t${pick.index}"] .card`);
    return Array.from(cards).slice(-heldCount(pick));
  }
  const slot = root.querySelector(`[data-target="${pick.source}"]`);
  const top = slot === null ? null : slot.querySelector(".card.face:last-child");
  return top === null ? [] : [top];
}

export class Table {
  constructor(area, handlers) {
    this.area = area;
    this.handlers = handlers; // { tap(target), double(target), drag(target, count, onto) }
    this.drag = null;
    this.dragged = false;
    area.addEventListener("click", (click) => this.clicked(click));
    area.addEventListener("dblclick", (click) => this.doubled(click));
    area.addEventListener("keydown", (key) => this.keyed(key));
    area.addEventListener("pointerdown", (down) => this.pressed(down));
    area.addEventListener("pointermove", (move) => this.moved(move));
    area.addEventListener("pointerup", (up) => this.released(up));
    area.addEventListener("pointercancel", () => this.dropDrag());
  }

  /** Draw `board` with `pick` (or null) in hand, keeping focus on the same target. */
  draw(board, pick) {
    const focused = document.activeElement?.dataset?.target ?? null;
    const root = drawBoard(board);
    markTargets(root, board);
    if (pick !== null) heldCards(root, pick).forEach((card) => card.classList.add("held"));
    this.area.replaceChildren(root);
    if (focused !== null) root.querySelector(`[data-target="${focused}"]`)?.focus();
  }

  clear(text) {
    this.area.replaceChildren(Object.assign(document.createElement("p"), { className: "no-board", textContent: text }));
  }

  /** A refused move: the board shakes (or, with reduced motion, is outlined) a moment. */
  shake() {
    this.area.classList.remove("refused");
    void this.area.offsetWidth; // restart the animation
    this.area.classList.add("refused");
  }

  clicked(click) {
    if (this.dragged) {
      this.dragged = false;
      return;
    }
    const target = click.target.closest("[data-target]");
    if (target !== null) this.handlers.tap(target.dataset.target);
  }

  doubled(click) {
    const target = click.target.closest("[data-target]");
    if (target !== null) this.handlers.double(target.dataset.target);
  }

  keyed(key) {
    if (key.key !== "Enter" && key.key !== " ") return;
    const target = key.target.closest("[data-target]");
    if (target === null) return;
    key.preventDefault();
    key.stopPropagation();
    this.handlers.tap(target.dataset.target);
  }

  pressed(down) {
    if (down.pointerType === "touch" || down.button !== 0) return;
    const target = down.target.closest("[data-target]");
    const card = down.target.closest(".card.face");
    if (target === null || card === null || !/^[twr]/.test(target.dataset.target)) return;
    const cards = Array.from(target.querySelectorAll(".card"));
    const count = target.dataset.target.startsWith("t") ? cards.length - cards.indexOf(card) : 1;
    this.drag = { from: target.dataset.target, count, x: down.clientX, y: down.clientY, ghost: null, cards: cards.slice(-count) };
  }

  moved(move) {
    const drag = this.drag;
    if (drag === null) return;
    if (drag.ghost === null) {
      if (Math.hypot(move.clientX - drag.x, move.clientY - drag.y) < DRAG_PX) return;
      drag.ghost = document.createElement("div");
      drag.ghost.className = "drag-ghost";
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.ghost.append(...drag.cards.map((card) => card.cloneNode(true)));
      this.area.querySelector(".cards").append(drag.ghost);
      drag.cards.forEach((card) => card.classList.add("lifted"));
    }
    drag.ghost.style.left = `${move.clientX - 10}px`;
    drag.ghost.style.top = `${move.clientY - 10}px`;
  }

  released(up) {
    const drag = this.drag;
    if (drag === null || drag.ghost === null) {
      this.drag = null;
      return;
    }
    drag.ghost.hidden = true;
    const under = document.elementFromPoint(up.clientX, up.clientY)?.closest("[data-target]") ?? null;
    this.dropDrag();
    this.dragged = true; // the click that ends a drag is not a tap
    setTimeout(() => { this.dragged = false; });
    if (under !== null && under.dataset.target !== drag.from) this.handlers.drag(drag.from, drag.count, under.dataset.target);
  }

  dropDrag() {
    if (this.drag?.ghost) {
      this.drag.ghost.remove();
      this.drag.cards.forEach((card) => card.classList.remove("lifted"));
    }
    this.drag = null;
  }
}
