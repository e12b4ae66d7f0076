// The canvas for the keyboard: Tab visits the steps first, then the edges, and the focus stays in
// the canvas when the element that had it goes away (undo, redo, delete). React Flow draws its
// edges' layer before its nodes' layer, so by DOM order Tab met every edge before the first step:
// the edges are taken out of the page's Tab order (tabIndex -1, still focusable) and these
// handlers walk them after the last step, and back. Works on the DOM React Flow renders, so it
// also holds for a large graph that draws only the visible elements.
import { useEffect, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { useStoreApi } from '@xyflow/react';

/** Edge options that take the edges out of the page's Tab order (the canvas's handlers walk them). */
export const EDGES_AFTER_NODES = { domAttributes: { tabIndex: -1 } } as const;

const nodesOf = (root: Element): HTMLElement[] => [...root.querySelectorAll<HTMLElement>('.react-flow__node[tabindex]')];
const edgesOf = (root: Element): SVGElement[] => [...root.querySelectorAll<SVGElement>('.react-flow__edge[tabindex]')];

/**
 * Tab from the last step goes to the first edge, through the edges, and on past the canvas;
 * Shift+Tab walks back the same way. Put on the element around the React Flow canvas.
 */
export function onCanvasTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (!(target instanceof Element)) return;
  const root = event.currentTarget;
  const nodes = nodesOf(root);
  const edges = edgesOf(root);
  const lastNode = nodes[nodes.length - 1];
  const edgeAt = edges.findIndex((e) => e === target);
  if (edgeAt === -1) {
    // From the last step, Tab enters the edges; elsewhere the browser's order is right.
    const first = edges[0];
    if (!event.shiftKey && target === lastNode && first !== undefined) {
      event.preventDefault();
      first.focus();
    }
    return;
  }
  const next = edges[edgeAt + (event.shiftKey ? -1 : 1)];
  if (next !== undefined) {
    event.preventDefault();
    next.focus();
  } else if (event.shiftKey) {
    // Back from the first edge: the last step.
    event.preventDefault();
    lastNode?.focus();
  } else {
    // On from the last edge: the browser's Tab, as if from the last step (what follows the canvas).
    lastNode?.focus();
  }
}

/**
 * Shift+Tab into the canvas from what follows it lands on the last edge, not the last step: the
 * reverse of Tab's order. Put on the same element, as onFocus (React's focusin).
 */
export function onCanvasFocusIn(event: FocusEvent<HTMLElement>): void {
  const root = event.currentTarget;
  const nodes = nodesOf(root);
  const lastNode = nodes[nodes.length - 1];
  const from = event.relatedTarget;
  if (lastNode === undefined || event.target !== lastNode || !(from instanceof Element)) return;
  // Only the keyboard's arrival: a click on the last step focuses it where it is.
  if (!lastNode.matches(':focus-visible')) return;
  if (from.closest('.react-flow__node, .react-flow__edge') !== null) return;
  if ((lastNode.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING) === 0) return;
  edgesOf(root).at(-1)?.focus();
}

/** A step or edge of the canvas, by React Flow's data-id. */
export interface CanvasElement {
  kind: 'node' | 'edge';
  id: string;
}

const elementOf = (el: Element): CanvasElement | null => {
  const found = el.closest('.react-flow__node, .react-flow__edge');
  const id = found?.getAttribute('data-id') ?? null;
  if (found === null || id === null) return null;
  return { kind: found.classList.contains('react-flow__node') ? 'node' : 'edge', id };
};

const find = (root: Element, { kind, id }: CanvasElement): HTMLElement | SVGElement | null =>
  [...root.querySelectorAll<HTMLElement | SVGElement>(`.react-flow__${kind}[tabindex]`)].find((e) => e.getAttribute('data-id') === id) ?? null;

/** A step or edge to focus once React Flow has drawn it (a step just added from the palette). */
let toFocus: CanvasElement | null = null;

/** Focuses this step or edge as soon as the canvas draws it. */
export function focusWhenDrawn(what: CanvasElement): void {
  toFocus = what;
}

/**
 * Keeps the focus in the canvas when the step or edge that had it leaves the page (deleted, or
 * undone away): it goes to the same element if React Flow drew it anew, else to the canvas
 * itself (`pane`, focusable with tabIndex -1). An element undone back while the canvas holds the
 * focus it lost takes it again, so Delete then Ctrl+Z ends where it began. Focus the user moved
 * elsewhere is never taken back.
 */
export function useFocusKept(wrapper: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = wrapper.current;
    if (root === null) return;
    let had: { element: Element; what: CanvasElement } | null = null;
    let lost: CanvasElement | null = null;
    const onIn = (event: globalThis.FocusEvent) => {
      if (!(event.target instanceof Element)) return;
      const what = elementOf(event.target);
      had = what === null ? null : { element: event.target, what };
      if (what !== null) lost = null;
    };
    const onOut = (event: globalThis.FocusEvent) => {
      if (event.relatedTarget instanceof Node && !root.contains(event.relatedTarget)) {
        had = null;
        lost = null;
      }
    };
    // React Flow renders from its own store after the document changed: watch its DOM, not time.
    const observer = new MutationObserver(() => {
      const wanted = toFocus === null ? null : find(root, toFocus);
      if (wanted !== null) {
        toFocus = null;
        wanted.focus();
        return;
      }
      const pane = root.querySelector<HTMLElement>('.react-flow');
      const active = document.activeElement;
      if ((active === null || active === document.body) && had !== null && !had.element.isConnected) {
        const again = find(root, had.what);
        if (again !== null) again.focus();
        else {
          lost = had.what;
          had = null;
          pane?.focus();
        }
      } else if (active === pane && lost !== null) {
        find(root, lost)?.focus();
      }
    });
    observer.observe(root, { childList: true, subtree: true });
    root.addEventListener('focusin', onIn);
    root.addEventListener('focusout', onOut);
    return () => {
      observer.disconnect();
      root.removeEventListener('focusin', onIn);
      root.removeEventListener('focusout', onOut);
    };
  }, [wrapper]);
}

/**
 * Keeps a focused edge's ring as wide on screen at any zoom: the edge is drawn inside React Flow's
 * scaled viewport, so graph.css divides the ring's width by `--flow-zoom`, set here on the
 * focused edge only (a variable on the whole canvas would restyle every element at each zoom).
 */
export function useEdgeRingZoom(wrapper: RefObject<HTMLElement | null>): void {
  const store = useStoreApi();
  useEffect(() => {
    const root = wrapper.current;
    if (root === null) return;
    const apply = () => {
      const edge = document.activeElement;
      if (edge instanceof SVGElement && edge.classList.contains('react-flow__edge') && root.contains(edge)) {
        edge.style.setProperty('--flow-zoom', String(store.getState().transform[2]));
      }
    };
    const stop = store.subscribe((now, before) => {
      if (now.transform[2] !== before.transform[2]) apply();
    });
    root.addEventListener('focusin', apply);
    return () => {
      stop();
      root.removeEventListener('focusin', apply);
    };
  }, [wrapper, store]);
}
