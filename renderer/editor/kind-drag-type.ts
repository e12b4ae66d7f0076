// The drag data type of a step kind dragged from the palette onto the canvas: the palette sets it
// and the canvas takes a drop only when it is there. Its own file, so the canvas (which shows the
// palette) and the palette need not import each other.
export const KIND_DRAG_TYPE = 'application/weft-step-kind';
