// Small DOM helpers: h() builds HTML elements, s() SVG elements. Text is
// always set as text (never parsed as HTML), so names typed by players are safe.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(element, attrs, children, svg) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else if (!svg && name in element && typeof element[name] !== "function" && name !== "list" && name !== "form") {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: h("button", {onclick: f, class: "x"}, "text"). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children, false);
}

/**
 * An SVG element: s("circle", {cx: 1, cy: 2, r: 3}). One with an aria-label
 * and no role gets one (a group, or an image), since ARIA allows a label
 * only on an element with a role; a clickable one becomes a button later.
 */
export function s(tag, attrs, ...children) {
  const element = fill(document.createElementNS(SVG_NS, tag), attrs, children, true);
  if (element.hasAttribute("aria-label") && !element.hasAttribute("role")) element.setAttribute("role", tag === "g" ? "group" : "img");
  return element;
}

/** An <svg> root with a viewBox and an accessible title. */
export function svgRoot(width, height, title, attrs = {}) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title, class: "board", ...attrs }, s("title", {}, title));
}

export function clear(element) {
  while (element.firstChild) element.firstChild.remove();
  return element;
}

/** A tooltip for an SVG element. */
export function tip(element, text) {
  element.append(s("title", {}, text));
  return element;
}

/** "REGION_AQUAE_SULIS" -> "Aquae Sulis" (prefix dropped, words capitalised). */
export function enumWords(name, prefix = "") {
  if (!name) return "";
  const bare = prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  return bare
    .toLowerCase()
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}
