package cast

// This file: a frame as a grid of cells, and the bytes that turn one grid
// into the next on a terminal (the changed cells only, as a terminal
// renderer draws), so that a long game's recording stays small.

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// cell is one cell of the screen: the grapheme drawn there ("" for the
// second cell of a wide one) and its style, the SGR sequences that set it
// from a plain style ("" for plain).
type cell struct{ text, style string }

// blank is an empty cell in the plain style, as a cleared screen holds.
var blank = cell{text: " "}

// grid is a screen, row by row, each row its width in cells.
type grid [][]cell

// newGrid returns a blank screen of w x h cells.
func newGrid(w, h int) grid {
	g := make(grid, h)
	for y := range g {
		g[y] = make([]cell, w)
		for x := range g[y] {
			g[y][x] = blank
		}
	}
	return g
}

// parseGrid returns lines (a frame's rows, styled with SGR sequences) as
// a w x h grid: a row cut at w cells, blank beyond its end; a wide
// grapheme that would cross the right edge is left out; any other
// sequence or control byte is dropped.
func parseGrid(lines []string, w, h int) grid {
	g := newGrid(w, h)
	for y, line := range lines {
		if y >= h {
			break
		}
		x, style := 0, ""
		var state byte
		for len(line) > 0 && x < w {
			seq, width, n, next := ansi.DecodeSequence(line, state, nil)
			state, line = next, line[n:]
			switch {
			case strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m"):
				style = sgr(style, seq)
			case width > 0 && x+width <= w:
				g[y][x] = cell{text: seq, style: style}
				for i := 1; i < width; i++ {
					g[y][x+i] = cell{style: style}
				}
				x += width
			case width > 0:
				x = w
			}
		}
	}
	return g
}

// sgr returns the style after seq, an SGR sequence, on top of style: a
// sequence that begins with a reset ("\x1b[m", "\x1b[0;…m", "\x1b[;…m")
// stands alone; any other adds to what was set.
func sgr(style, seq string) string {
	params := seq[2 : len(seq)-1]
	switch {
	case params == "" || params == "0":
		return ""
	case strings.HasPrefix(params, ";") || strings.HasPrefix(params, "0;"):
		return seq
	}
	return style + seq
}

// gapCells is how many unchanged cells between two changed ones are
// written again rather than skipped with a cursor move (which costs about
// as many bytes).
const gapCells = 6

// diff writes to b what turns screen from into to (both the same size):
// for each row, the runs of cells that differ, each after a cursor move to
// its first cell; the style set only where it changes. It leaves the
// style plain.
func diff(b *strings.Builder, from, to grid) {
	cur := "" // the style the terminal has, as written
	for y := range to {
		row, old := to[y], from[y]
		x := 0
		for x < len(row) {
			if row[x] == old[x] {
				x++
				continue
			}
			for x > 0 && row[x].text == "" { // the second cell of a wide grapheme: from its first
				x--
			}
			end := x // the end of the run: past its last changed cell, gaps of up to gapCells kept in
			for i := x; i < len(row) && i-end <= gapCells; i++ {
				if row[i] != old[i] {
					end = i + 1
				}
			}
			for end < len(row) && row[end].text == "" { // and the rest of a wide one
				end++
			}
			b.WriteString("\x1b[" + strconv.Itoa(y+1) + ";" + strconv.Itoa(x+1) + "H")
			for ; x < end; x++ {
				c := row[x]
				if c.text == "" {
					continue
				}
				if c.style != cur {
					if !strings.HasPrefix(c.style, "\x1b[;") && !strings.HasPrefix(c.style, "\x1b[0;") {
						b.WriteString("\x1b[m")
					}
					b.WriteString(c.style)
					cur = c.style
				}
				b.WriteString(c.text)
			}
		}
	}
	if cur != "" {
		b.WriteString("\x1b[m")
	}
}
