package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// This file holds the colours. Everything is written in true colour; Bubble
// Tea's renderer downsamples to the 256 or 16 colours the client's terminal
// reports, so one theme serves every terminal.

// theme is a session's colours: the chrome every session shares, and what
// depends on the session's terminal (its colour profile, and a cache of the
// readable colours it has asked for).
type theme struct {
	*chrome // read-only, one for every session (sharedChrome)

	basic   bool                 // 16 colours or fewer: basic colours, no lighting
	profile colorprofile.Profile // the terminal's, for readable (contrast.go)

	readableCache map[readableKey]content.RGB // readable's answers: the map asks for few colours many times
	bare          bool                        // no colours (Ascii) or no attributes at all (NoTTY, e.g. TERM=dumb): overlays need marks, not colours
}

// chrome is the colours of text around the map, the same for every
// terminal (Bubble Tea downsamples them). It is built once, at package
// initialisation, and never written after: every session reads the one
// sharedChrome (about 18 KiB that each session held a copy of).
type chrome struct {
	msg        map[game.MsgKind]lipgloss.Style
	impossible lipgloss.Style
	status     lipgloss.Style
	hpGood     lipgloss.Style
	hpLow      lipgloss.Style
	title      lipgloss.Style
	selected   lipgloss.Style
	dim        lipgloss.Style
	text       lipgloss.Style
	heading    lipgloss.Style
	potion     lipgloss.Style
	scroll     lipgloss.Style
	box        lipgloss.Style

	// spans are the styles drawn in every frame, as spans (span.go).
	spans struct {
		status, hpGood, hpLow, dim, impossible span
		msg                                    map[game.MsgKind]span
	}
}

// sharedChrome is every session's chrome: read-only after initialisation.
var sharedChrome = newChrome()

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 255} }

// newTheme builds the colours for a terminal's colour profile. Colours are
// written in true colour and downsampled by Bubble Tea for 256-colour
// terminals; on 16 colours and below the map uses basic colours picked by
// hand (and no lighting), because the nearest basic colour of a muted or
// torch-lit tone is often a garish one.
func newTheme(profile colorprofile.Profile) *theme {
	return &theme{chrome: sharedChrome, basic: profile <= colorprofile.ANSI, bare: profile <= colorprofile.Ascii, profile: profile}
}

// newChrome builds the colours of text around the map; Bubble Tea
// downsamples them.
func newChrome() *chrome {
	t := &chrome{}
	st := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	t.msg = map[game.MsgKind]lipgloss.Style{
		game.MsgInfo:        st(rgb(255, 255, 255)),
		game.MsgWelcome:     st(rgb(32, 160, 255)),
		game.MsgPlayerHit:   st(rgb(224, 224, 224)),
		game.MsgEnemyHit:    st(rgb(255, 160, 160)),
		game.MsgEnemyDeath:  st(rgb(255, 160, 48)),
		game.MsgPlayerDeath: st(rgb(255, 48, 48)),
		game.MsgDescend:     st(rgb(159, 63, 255)),
		game.MsgHeal:        st(rgb(0, 255, 0)),   // tcod part 6: health_recovered
		game.MsgStatus:      st(rgb(63, 255, 63)), // tcod part 8: status_effect_applied
	}
	t.impossible = st(rgb(128, 128, 128))
	t.status = st(rgb(220, 220, 220))
	t.hpGood = st(rgb(80, 220, 80)).Bold(true)
	t.hpLow = st(rgb(255, 64, 64)).Bold(true)
	t.title = st(rgb(255, 200, 80)).Bold(true)
	t.selected = lipgloss.NewStyle().Foreground(rgb(0, 0, 0)).Background(rgb(255, 200, 80)).Bold(true)
	t.dim = st(rgb(128, 128, 128))
	t.text = st(rgb(220, 220, 220))
	t.heading = st(rgb(32, 160, 255)).Bold(true)
	t.potion = st(rgb(200, 100, 255))
	t.scroll = st(rgb(255, 230, 100))
	t.box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(rgb(120, 120, 140)).Padding(0, 1)
	t.spans.status, t.spans.hpGood, t.spans.hpLow = spanOf(t.status), spanOf(t.hpGood), spanOf(t.hpLow)
	t.spans.dim, t.spans.impossible = spanOf(t.dim), spanOf(t.impossible)
	t.spans.msg = make(map[game.MsgKind]span, len(t.msg))
	for k, st := range t.msg {
		t.spans.msg[k] = spanOf(st)
	}
	return t
}

// msgSpan returns the span of a message kind (white for unknown kinds).
func (t *chrome) msgSpan(k game.MsgKind) span {
	if s, ok := t.spans.msg[k]; ok {
		return s
	}
	return t.spans.msg[game.MsgInfo]
}

// msgStyle returns the style of a message kind (white for unknown kinds).
func (t *chrome) msgStyle(k game.MsgKind) lipgloss.Style {
	if s, ok := t.msg[k]; ok {
		return s
	}
	return t.msg[game.MsgInfo]
}

// tileLook is how a tile kind is drawn: glyph, true colour, basic colour.
type tileLook struct {
	ch    rune
	fg    content.RGB
	basic ansi.BasicColor
	bold  bool
}

// lookOf returns the look of a tile, for ordinary levels or for the
// caverns (bracket-lib, "Theming the caverns": walls ▒ light grey, gravel ;
// grey, shallow water ░ cyan, deep water ▓ blue, stalactites ╨ and
// stalagmites ╥, stairs cyan). Deep water is a light blue (#285aff, 4.0:1
// on black): pure blue is 2.4:1, under WCAG's 3:1.
func lookOf(t world.Tile, cave bool) tileLook {
	grey := func(v float64) content.RGB { c := uint8(v * 255); return content.RGB{R: c, G: c, B: c} }
	switch t {
	case world.Floor:
		if cave {
			return tileLook{'.', grey(0.6), ansi.White, false}
		}
		return tileLook{'.', content.RGB{R: 200, G: 180, B: 110}, ansi.Yellow, false}
	case world.Wall:
		if cave {
			return tileLook{'▒', grey(0.8), ansi.White, false}
		}
		return tileLook{'#', content.RGB{R: 190, G: 160, B: 100}, ansi.White, false}
	case world.Gravel:
		return tileLook{';', content.RGB{R: 150, G: 135, B: 115}, ansi.Yellow, false}
	case world.ShallowWater:
		return tileLook{'░', content.RGB{G: 255, B: 255}, ansi.Cyan, false}
	case world.DeepWater:
		return tileLook{'▓', content.RGB{R: 40, G: 90, B: 255}, ansi.BrightBlue, false}
	case world.Stalactite:
		return tileLook{'╨', grey(0.5), ansi.White, false}
	case world.Stalagmite:
		return tileLook{'╥', grey(0.5), ansi.White, false}
	case world.Door: // doors, altars and traps (NetHack's + _ ^)
		return tileLook{'+', content.RGB{R: 190, G: 120, B: 60}, ansi.Yellow, false}
	case world.Altar:
		return tileLook{'_', content.RGB{R: 255, G: 215, B: 90}, ansi.BrightYellow, true}
	case world.DartTrap:
		return tileLook{'^', content.RGB{R: 255, G: 90, B: 90}, ansi.BrightRed, true}
	case world.PoisonTrap:
		return tileLook{'^', content.RGB{R: 90, G: 230, B: 90}, ansi.BrightGreen, true}
	case world.TeleportTrap:
		return tileLook{'^', content.RGB{R: 220, G: 110, B: 255}, ansi.BrightMagenta, true}
	case world.AlarmTrap:
		return tileLook{'^', content.RGB{R: 255, G: 230, B: 60}, ansi.BrightYellow, true}
	case world.SecretDoor, world.HiddenDartTrap, world.HiddenPoisonTrap, world.HiddenTeleportTrap, world.HiddenAlarmTrap:
		return lookOf(t.Apparent(), cave) // never drawn: Game.Tile shows what they look like
	case world.DownStairs, world.UpStairs:
		ch := '>'
		if t == world.UpStairs {
			ch = '<'
		}
		if cave {
			return tileLook{ch, content.RGB{G: 255, B: 255}, ansi.BrightCyan, true}
		}
		return tileLook{ch, content.RGB{R: 255, G: 255, B: 255}, ansi.BrightWhite, true}
	}
	return tileLook{'?', grey(1), ansi.BrightMagenta, false}
}

// remembered returns the look of a remembered tile's colour: a grey from
// its brightness (ITU-R 601 luma), squeezed into 90..115 so that it is
// dimmer than anything in view (at least seenContrast) yet never under
// minContrast (90 is 3.1:1, 115 is 4.4:1 on black); readable then lifts
// what the terminal's palette would push under 3:1.
func (t *theme) remembered(c content.RGB) content.RGB {
	luma := 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	v := uint8(90 + luma*25/255)
	return t.readable(content.RGB{R: v, G: v, B: v}, minContrast)
}

// minLight is the least light a tile in view gets on a dark level: the torch
// formula (bracket-lib, "Lighting": (range − distance) / range per source,
// summed) falls to 0 at the edge of its range, and a tile the player sees
// must keep its colour. Light l is drawn as minLight + (1 − minLight)·l of
// the tile's colour, per channel, clamped to 255.
const minLight = 0.5

// lit multiplies a colour by a light level per channel, clamped to 0..255.
func lit(c content.RGB, r, g, b float64) content.RGB {
	ch := func(v uint8, l float64) uint8 { return uint8(min(255, float64(v)*(minLight+(1-minLight)*l))) }
	return content.RGB{R: ch(c.R, r), G: ch(c.G, g), B: ch(c.B, b)}
}

// tileColour returns the colour a tile of look lk is drawn in: in view, lit
// by light (r, g, b) on a dark level or at full colour elsewhere, and at
// least seenContrast; remembered, in grey (see remembered), except the
// stairs, drawn light grey to be found again. On 16 colours: the look's
// basic colour in view, bright black remembered.
func (t *theme) tileColour(lk tileLook, visible, dark bool, r, g, b float64) (content.RGB, ansi.BasicColor) {
	switch {
	case !visible && (lk.ch == '>' || lk.ch == '<'):
		return content.RGB{R: 170, G: 170, B: 170}, ansi.White // remembered stairs: easy to find again
	case !visible:
		return t.remembered(lk.fg), ansi.BrightBlack
	case dark:
		return t.readable(lit(lk.fg, r, g, b), seenContrast), lk.basic
	}
	return t.readable(lk.fg, seenContrast), lk.basic
}

// thingDim is how much of its colour a remembered item or remains keeps.
const thingDim = 0.6

// thingColour returns the colour an actor, item or remains of colour fg
// (basic on 16 colours) is drawn in: as it is in view (things are not
// darkened by light, as in bracket-lib's caverns, so they can be spotted)
// and at least seenContrast, or dimmed to thingDim when remembered and at
// least minContrast. A dark colour from the data (say a monster in
// #550000) is raised here, at draw time, so data cannot make a glyph
// unreadable. On 16 colours a remembered thing takes the normal (not
// bright) basic colour of its hue, or bright black where that is blue or
// black (under 3:1 in xterm's palette).
func (t *theme) thingColour(fg content.RGB, basic ansi.BasicColor, remembered bool) (content.RGB, ansi.BasicColor) {
	if !remembered {
		return t.readable(fg, seenContrast), readableBasic(basic)
	}
	dim := func(v uint8) uint8 { return uint8(float64(v) * thingDim) }
	c := t.readable(content.RGB{R: dim(fg.R), G: dim(fg.G), B: dim(fg.B)}, minContrast)
	if basic >= 8 {
		basic -= 8
	}
	return c, readableBasic(basic)
}

// readableBasic returns b, or bright black for the basic colours under 3:1
// on black in xterm's palette (black and blue).
func readableBasic(b ansi.BasicColor) ansi.BasicColor {
	if b == ansi.Black || b == ansi.Blue {
		return ansi.BrightBlack
	}
	return b
}

// actorFG returns an actor's colour: white for the player, dark red for
// remains, else its colour in the data.
func actorFG(data *content.Tables, a game.Actor) (content.RGB, ansi.BasicColor) {
	switch {
	case a.Kind == "player":
		return content.RGB{R: 255, G: 255, B: 255}, ansi.BrightWhite
	case a.Corpse:
		return remainsFG()
	}
	if k, ok := data.Monster(a.Kind); ok {
		return k.FG, nearestBasic(k.FG)
	}
	return content.RGB{R: 255, G: 255}, ansi.BrightYellow
}

// remainsFG returns the colour of remains: dark red.
func remainsFG() (content.RGB, ansi.BasicColor) { return content.RGB{R: 191}, ansi.Red }

// Unknown scrolls and wands are drawn in one colour each, whatever their
// kind (the scroll colour of most scrolls, the wands' wood in items.json):
// the breaker saw an unknown fireball scroll drawn orange.
var (
	unknownScrollFG = content.RGB{R: 255, G: 255, B: 120}
	unknownWandFG   = content.RGB{R: 208, G: 176, B: 128}
)

// itemMark is how the map draws an item of kind k: its glyph and colour
// from the data (items.json); a potion in its appearance's colour in g
// (the colour tells the look, not the kind); a scroll or wand
// not yet identified in its class's one colour (unknownScrollFG,
// unknownWandFG); or a yellow '*' for a kind the data lacks.
func itemMark(g *game.Game, data *content.Tables, k game.ItemKind) mark {
	if it, ok := data.Item(string(k)); ok {
		fg := it.FG
		switch a, ok := g.AppearanceOf(k); {
		case ok && k.Potion():
			fg = a.FG
		case g.Unidentified(k) && k.Scroll():
			fg = unknownScrollFG
		case g.Unidentified(k) && k.Wand():
			fg = unknownWandFG
		}
		return mark{ch: it.Glyph, fg: fg, basic: nearestBasic(fg)}
	}
	return mark{ch: '*', fg: content.RGB{R: 255, G: 255}, basic: ansi.BrightYellow}
}

// nearestBasic picks a bright basic colour for a data colour by which
// channels dominate: good enough to tell monsters apart on 16 colours.
func nearestBasic(c content.RGB) ansi.BasicColor {
	hi := max(c.R, c.G, c.B)
	if hi < 40 {
		return ansi.BrightBlack
	}
	bit := func(v uint8) int {
		if int(v)*2 >= int(hi) {
			return 1
		}
		return 0
	}
	return ansi.BasicColor(8 + bit(c.R) + 2*bit(c.G) + 4*bit(c.B))
}
