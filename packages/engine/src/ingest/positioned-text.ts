/** A run of text in reading-direction coordinates: x grows along the line, y (baseline) grows up. */
export interface PositionedText {
  text: string;
  x: number;
  y: number;
  width: number;
  /** Font size (height of the text run). */
  size: number;
}
