package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// This file draws the map: tiles by theme and light, remembered tiles in
// greyscale, actors and items on the tiles in view, and the targeting
// overlay. Escape sequences are written only when the look changes.

// cellLook is everything that decides how one cell is drawn.
type cellLook struct {
	ch    rune
	fg    content.RGB
	basic ansi.BasicColor
	bold  bool
	faint bool  // remembered, on a theme without colours (theme.bare): SGR 2 needs none
	bg    uint8 // 0 none, bgArea, bgCursor
	set   bool  // false for a blank cell
}

const (
	bgArea   = 1 // a tile the area effect would hit
	bgCursor = 2 // the targeting cursor (reverse video)
	// bgAltar is an item lying on an altar (a tester found the item hid
	// the altar): the item's glyph in black on the altar's gold, and
	// underlined (the altar is '_'), which stays without colours.
	bgAltar    = 3
	bgAltarDim = 4 // the same, remembered: a duller gold
)

// altarGold is the background of an item on an altar (the altar's own
// colour, lookOf), and altarGoldDim that of a remembered one (thingDim of
// it); black glyphs on them keep over 7:1.
var altarGold, altarGoldDim = content.RGB{R: 255, G: 215, B: 90}, content.RGB{R: 153, G: 129, B: 54}

// mark is what stands on a tile this frame: an actor or an item.
type mark struct {
	ch         rune
	fg         content.RGB
	basic      ansi.BasicColor
	bold       bool
	remembered bool // drawn dim: last seen there, not in view now
	item       bool // an item: drawn on the altar's colour when it lies on one
}

// drawMap writes mapRows lines of g's map as seen through the camera, which
// it does not move. s.occ (sized by follow) is scratch space, left as it was
// found.
func (s *playScreen) drawMap(m *Model, g *game.Game, b *strings.Builder, mapRows int, ov *overlay) {
	mw, mh := g.Size()
	occ := s.occ
	if len(occ) != mw*mh {
		occ = noMarks(mw * mh) // drawn before any Update: not kept
	}
	marks, touched := placeMarks(g, m.p.Data, occ, m.ascii())
	var hl []bool
	if ov != nil {
		hl = make([]bool, mw*mh)
		for _, p := range ov.area {
			hl[p.Y*mw+p.X] = true
		}
	}
	cave := g.Dark()
	var cur cellLook
	for row := range mapRows {
		for col := range m.w {
			p := world.Pos{X: s.cam.x + col, Y: s.cam.y + row}
			var l cellLook
			if p.X >= 0 && p.Y >= 0 && p.X < mw && p.Y < mh {
				l = m.th.cell(g, p, occ, marks, cave, m.ascii())
				if ov != nil && m.th.bare {
					l = bareOverlay(l, p, ov, hl[p.Y*mw+p.X], occ[p.Y*mw+p.X] >= 0)
				} else if ov != nil {
					l = colourOverlay(l, p == ov.cursor, hl[p.Y*mw+p.X])
				}
			}
			if !l.set {
				if cur.bg != 0 {
					b.WriteString("\x1b[m")
					cur = cellLook{}
				}
				b.WriteByte(' ')
				continue
			}
			if l.fg != cur.fg || l.basic != cur.basic || l.bold != cur.bold || l.faint != cur.faint || l.bg != cur.bg || !cur.set {
				m.th.writeSGR(b, l)
				cur = l
			}
			b.WriteRune(l.ch)
		}
		if cur.set {
			b.WriteString("\x1b[m")
			cur = cellLook{}
		}
		b.WriteByte('\n')
	}
	for _, i := range touched {
		occ[i] = -1
	}
}

// colourOverlay is cell l under the targeting overlay in colour: the
// cursor's background on the cursor (an X where nothing else is drawn),
// the area's on a tile of the blast area (highlighted).
func colourOverlay(l cellLook, cursor, highlighted bool) cellLook {
	switch {
	case cursor:
		l.bg = bgCursor
		if !l.set {
			l = cellLook{ch: 'X', fg: content.RGB{R: 255, G: 255, B: 255}, basic: ansi.BrightWhite, set: true, bg: bgCursor}
		}
	case highlighted:
		l.bg = bgArea
		if !l.set {
			l = cellLook{ch: ' ', set: true, bg: bgArea}
		}
	}
	return l
}

// noMarks returns an occupancy buffer of n tiles with nothing on them.
func noMarks(n int) []int16 {
	occ := make([]int16, n)
	for i := range occ {
		occ[i] = -1
	}
	return occ
}

// placeMarks lists what stands on the tiles in view, remains below items
// below the living, and the remains and items remembered on tiles out of
// view (game.Remembered), and points occ (per tile of g's map) at the top
// one. touched lists the tiles of occ it set, to clear after drawing. In
// ascii, glyphs are those of the ASCII symbol set.
func placeMarks(g *game.Game, data *content.Tables, occ []int16, ascii bool) (marks []mark, touched []int) {
	mw, _ := g.Size()
	set := func(p world.Pos, kind string, mk mark) { // kind: the monster or item kind, "" for remains
		if ascii && kind != "" {
			mk.ch = asciiMark(data, kind, mk.ch)
		}
		i := p.Y*mw + p.X
		occ[i] = int16(len(marks))
		marks = append(marks, mk)
		touched = append(touched, i)
	}
	for _, s := range g.Remembered() { // remains before items on a tile
		mk := itemMark(g, data, s.Item)
		mk.item = true
		if s.Item == "" {
			fg, basic := remainsFG()
			mk = mark{ch: s.Glyph, fg: fg, basic: basic}
		}
		mk.remembered = true
		set(s.Pos, string(s.Item), mk)
	}
	put := func(p world.Pos, kind string, mk mark) {
		if g.Visible(p) {
			set(p, kind, mk)
		}
	}
	for _, a := range g.Sensed() { // telepathy: drawn as remembered, out of sight
		fg, basic := actorFG(data, a)
		set(a.Pos, a.Kind, mark{ch: a.Glyph, fg: fg, basic: basic, remembered: true})
	}
	actors := g.Actors()
	for pass := range 2 { // remains, then items, then the living on top
		for _, a := range actors {
			if a.Corpse == (pass == 0) {
				fg, basic := actorFG(data, a)
				kind := a.Kind
				if a.Corpse {
					kind = ""
				}
				put(a.Pos, kind, mark{ch: a.Glyph, fg: fg, basic: basic, bold: a.Kind == "player" || a.Kind == "troll"})
			}
		}
		if pass == 0 {
			for _, it := range g.Items() {
				mk := itemMark(g, data, it.Kind)
				mk.item = true
				put(it.Pos, string(it.Kind), mk)
			}
		}
	}
	return marks, touched
}

// cell returns the look of map tile p: what stands there if in view (or is
// remembered there), else the tile, lit (in view) or remembered, or blank
// (never seen). Without colours (t.bare) what is remembered is faint, so it
// still differs from what is in view. Colours come from tileColour and thingColour; in ascii the
// tile's glyph is the ASCII symbol set's.
func (t *theme) cell(g *game.Game, p world.Pos, occ []int16, marks []mark, cave, ascii bool) cellLook {
	mw, _ := g.Size()
	if i := occ[p.Y*mw+p.X]; i >= 0 {
		mk := marks[i]
		fg, basic := t.thingColour(mk.fg, mk.basic, mk.remembered)
		l := cellLook{ch: mk.ch, fg: fg, basic: basic, bold: mk.bold && !(t.bare && mk.remembered), faint: t.bare && mk.remembered, set: true}
		if mk.item && g.Tile(p) == world.Altar && (g.Visible(p) || g.Explored(p)) {
			l.bg = bgAltar
			if mk.remembered {
				l.bg = bgAltarDim
			}
		}
		return l
	}
	visible := g.Visible(p)
	if !visible && !g.Explored(p) {
		return cellLook{}
	}
	lk := lookOf(g.Tile(p), cave)
	if ascii {
		lk.ch = g.Tile(p).ASCII()
	}
	var r, gr, bl float64
	if visible && cave {
		r, gr, bl = g.Light(p)
	}
	fg, basic := t.tileColour(lk, visible, cave, r, gr, bl)
	return cellLook{ch: lk.ch, fg: fg, basic: basic, bold: lk.bold && visible, faint: t.bare && !visible, set: true}
}

// writeSGR starts a cell's look afresh: reset, then colour, bold, background.
func (th *theme) writeSGR(b *strings.Builder, l cellLook) {
	b.WriteString("\x1b[0")
	if l.bold {
		b.WriteString(";1")
	}
	if l.faint {
		b.WriteString(";2")
	}
	switch l.bg {
	case bgCursor:
		b.WriteString(";7")
	case bgArea:
		b.WriteString(";41")
	case bgAltar, bgAltarDim:
		b.WriteString(";4")
		switch {
		case th.bare: // the underline alone: the renderer drops colours
		case th.basic && l.bg == bgAltar:
			b.WriteString(";103;30")
		case th.basic:
			b.WriteString(";43;30")
		default:
			bg := altarGold
			if l.bg == bgAltarDim {
				bg = altarGoldDim
			}
			b.WriteString(";48;2;" + strconv.Itoa(int(bg.R)) + ";" + strconv.Itoa(int(bg.G)) + ";" + strconv.Itoa(int(bg.B)) + ";38;2;0;0;0")
		}
		b.WriteByte('m')
		return
	}
	if th.basic || l.bg == bgArea {
		c := int(l.basic)
		if l.bg == bgArea {
			c = int(ansi.BrightWhite)
		}
		if c >= 8 {
			b.WriteString(";9")
			c -= 8
		} else {
			b.WriteString(";3")
		}
		b.WriteString(strconv.Itoa(c))
	} else {
		var buf [16]byte
		b.WriteString(";38;2;")
		b.Write(strconv.AppendUint(buf[:0], uint64(l.fg.R), 10))
		b.WriteByte(';')
		b.Write(strconv.AppendUint(buf[:0], uint64(l.fg.G), 10))
		b.WriteByte(';')
		b.Write(strconv.AppendUint(buf[:0], uint64(l.fg.B), 10))
	}
	b.WriteByte('m')
}

// bareOverlay draws the targeting overlay on a terminal without colours
// (where reverse video and backgrounds may be dropped, as TERM=dumb does):
// the cursor is an X, and a tile in the area with nothing on it a *.
func bareOverlay(l cellLook, p world.Pos, ov *overlay, inArea, occupied bool) cellLook {
	switch {
	case p == ov.cursor:
		return cellLook{ch: 'X', fg: content.RGB{R: 255, G: 255, B: 255}, basic: ansi.BrightWhite, set: true, bg: bgCursor}
	case inArea && !occupied:
		return cellLook{ch: '*', fg: content.RGB{R: 255, G: 255, B: 255}, basic: ansi.BrightWhite, set: true, bg: bgArea}
	}
	return l
}
