package tui

// This file keeps the map readable: the WCAG 2.x contrast of a colour
// against the terminal's black background, the colour a terminal really
// shows for a colour the map writes (true colour as is, 256 colours as
// Bubble Tea's renderer downsamples it, 16 colours by the xterm defaults),
// and the clamp that raises any colour the map draws to a readable minimum.

import (
	"math"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game/content"
)

// Contrast minimums against the black background, as WCAG 2.x ratios.
const (
	// minContrast is what every glyph a player must read keeps: WCAG 2.x's
	// 3:1 for large text and for graphical objects (success criteria 1.4.3
	// and 1.4.11). Remembered tiles and things sit just above it.
	minContrast = 3.0
	// seenContrast is the floor of whatever is in view, WCAG 2.x's 4.5:1
	// for text: what the player sees now stays brighter than what is
	// remembered, however far the torch has faded, and a thing in view has
	// room to be dimmed when it is remembered.
	seenContrast = 4.5
)

// background is the colour the map is drawn on: the terminal's own
// background, taken as black (grotto assumes a dark terminal).
var background = content.RGB{}

// linear returns an sRGB channel (0..255) as linear light (WCAG 2.x).
func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// luminance returns the WCAG 2.x relative luminance of c, 0 (black) to 1
// (white).
func luminance(c content.RGB) float64 {
	return 0.2126*linear(c.R) + 0.7152*linear(c.G) + 0.0722*linear(c.B)
}

// contrast returns the WCAG 2.x contrast ratio of a and b, 1 to 21.
func contrast(a, b content.RGB) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// xterm16 is xterm's default palette for the 16 basic colours (its
// XTerm-col.ad resources), by ansi.BasicColor.
var xterm16 = [16]content.RGB{
	{R: 0, G: 0, B: 0},       // 0: #000000
	{R: 205, G: 0, B: 0},     // 1: #cd0000
	{R: 0, G: 205, B: 0},     // 2: #00cd00
	{R: 205, G: 205, B: 0},   // 3: #cdcd00
	{R: 0, G: 0, B: 238},     // 4: #0000ee
	{R: 205, G: 0, B: 205},   // 5: #cd00cd
	{R: 0, G: 205, B: 205},   // 6: #00cdcd
	{R: 229, G: 229, B: 229}, // 7: #e5e5e5
	{R: 127, G: 127, B: 127}, // 8: #7f7f7f
	{R: 255, G: 0, B: 0},     // 9: #ff0000
	{R: 0, G: 255, B: 0},     // 10: #00ff00
	{R: 255, G: 255, B: 0},   // 11: #ffff00
	{R: 92, G: 92, B: 255},   // 12: #5c5cff
	{R: 255, G: 0, B: 255},   // 13: #ff00ff
	{R: 0, G: 255, B: 255},   // 14: #00ffff
	{R: 255, G: 255, B: 255}, // 15: #ffffff
}

// xterm256 returns the RGB of an xterm 256-colour index: the 16 basic
// colours, the 6x6x6 cube (levels 0, 95, 135, 175, 215, 255) from 16, and 24
// greys (8, 18 … 238) from 232.
func xterm256(i ansi.IndexedColor) content.RGB {
	switch {
	case i < 16:
		return xterm16[i]
	case i >= 232:
		v := uint8(8 + 10*(int(i)-232))
		return content.RGB{R: v, G: v, B: v}
	}
	level := [6]uint8{0, 95, 135, 175, 215, 255}
	n := int(i) - 16
	return content.RGB{R: level[n/36], G: level[n/6%6], B: level[n%6]}
}

// shown returns the colour a terminal of profile p shows for a map cell
// written as true colour fg or basic colour basic (writeSGR writes basic
// colours on 16 colours or fewer, true colour otherwise, which the renderer
// downsamples to 256 colours with ansi.Convert256).
func shown(p colorprofile.Profile, fg content.RGB, basic ansi.BasicColor) content.RGB {
	switch {
	case p <= colorprofile.ANSI:
		return xterm16[basic&15]
	case p == colorprofile.ANSI256:
		return xterm256(ansi.Convert256(rgb(fg.R, fg.G, fg.B)))
	}
	return fg
}

// brighter returns c moved s along the path from c to white that keeps its
// hue longest: for s in 0..1 scaled up until its brightest channel is 255,
// then for s in 1..2 mixed with white. Luminance grows with s.
func brighter(c content.RGB, s float64) content.RGB {
	hi := max(c.R, c.G, c.B)
	if hi == 0 {
		v := uint8(math.Round(255 * s / 2))
		return content.RGB{R: v, G: v, B: v}
	}
	k := 1 + min(s, 1)*(255/float64(hi)-1)
	w := max(0, s-1)
	ch := func(v uint8) uint8 {
		x := float64(v) * k
		return uint8(math.Round(min(255, x+(255-x)*w)))
	}
	return content.RGB{R: ch(c.R), G: ch(c.G), B: ch(c.B)}
}

// readableKey is a colour and the contrast it must reach.
type readableKey struct {
	c     content.RGB
	ratio float64
}

// readable returns c, or c brightened (keeping its hue as long as it can)
// just enough that the colour the theme's terminal shows for it has at
// least ratio contrast on the background. On 16 colours it returns c: the
// map draws basic colours there, chosen readable by hand (and tested).
func (t *theme) readable(c content.RGB, ratio float64) content.RGB {
	if t.basic {
		return c
	}
	k := readableKey{c, ratio}
	if r, hit := t.readableCache[k]; hit {
		return r
	}
	if t.readableCache == nil || len(t.readableCache) >= 1<<14 {
		t.readableCache = make(map[readableKey]content.RGB)
	}
	ok := func(c content.RGB) bool { return contrast(shown(t.profile, c, 0), background) >= ratio }
	if ok(c) {
		t.readableCache[k] = c
		return c
	}
	// The least s whose true colour is readable, then the least s from there
	// whose colour as shown is (both by bisection; s = 2, white, always is).
	least := func(lo float64, ok func(content.RGB) bool, steps int) float64 {
		hi := 2.0
		for range steps {
			if mid := (lo + hi) / 2; ok(brighter(c, mid)) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi
	}
	s := least(0, func(c content.RGB) bool { return contrast(c, background) >= ratio }, 20)
	if !ok(brighter(c, s)) {
		s = least(s, ok, 10)
	}
	r := brighter(c, s)
	t.readableCache[k] = r
	return r
}
