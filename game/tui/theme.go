package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
)

// This file holds the colours. Everything is written in true colour; Bubble
// Tea's renderer downsamples to the 256 or 16 colours the client's terminal
// reports, so one theme serves every terminal.

// cellStyle names one look of a map cell.
type cellStyle uint8

const (
	csNone cellStyle = iota
	csFloorLit
	csFloorDim
	csWallLit
	csWallDim
	csStairsLit
	csStairsDim
	csPlayer
	csOrc
	csTroll
	csCorpse
	csOther
	csPotion
	csScroll
	csCount
)

// theme is built once per session (no package-level mutable state).
type theme struct {
	sgr    [csCount]string // SGR prefix for each cell style
	cursor string          // SGR of the targeting cursor
	area   string          // SGR of tiles an area effect would hit

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
}

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 255} }

func fg(c color.Color) string { return ansi.Style{}.ForegroundColor(c).String() }

// newTheme builds the colours for a terminal's colour profile. True colour is
// written as is and downsampled by Bubble Tea for 256-colour terminals; on 16
// colours the map uses a hand-picked palette, because the nearest basic
// colour of a muted tone is often a garish one.
func newTheme(profile colorprofile.Profile) *theme {
	t := &theme{}
	if profile <= colorprofile.ANSI {
		basic := func(c ansi.BasicColor, bold bool) string {
			st := ansi.Style{}
			if bold {
				st = st.Bold()
			}
			return st.ForegroundColor(c).String()
		}
		t.sgr[csFloorLit] = basic(ansi.Yellow, false)
		t.sgr[csFloorDim] = basic(ansi.Blue, false)
		t.sgr[csWallLit] = basic(ansi.White, false)
		t.sgr[csWallDim] = basic(ansi.BrightBlack, false)
		t.sgr[csStairsLit] = basic(ansi.BrightWhite, true)
		t.sgr[csStairsDim] = basic(ansi.White, false)
		t.sgr[csPlayer] = basic(ansi.BrightWhite, true)
		t.sgr[csOrc] = basic(ansi.BrightGreen, false)
		t.sgr[csTroll] = basic(ansi.Green, true)
		t.sgr[csCorpse] = basic(ansi.Red, false)
		t.sgr[csOther] = basic(ansi.BrightYellow, false)
		t.sgr[csPotion] = basic(ansi.BrightMagenta, false)
		t.sgr[csScroll] = basic(ansi.BrightYellow, false)
	} else {
		t.trueColorMap()
	}
	t.cursor = ansi.Style{}.Reverse(true).Bold().String()
	t.area = ansi.Style{}.ForegroundColor(ansi.BrightWhite).BackgroundColor(ansi.Red).String()
	t.chrome()
	return t
}

// trueColorMap sets the map's colours for 256- and true-colour terminals.
func (t *theme) trueColorMap() {
	t.sgr[csFloorLit] = fg(rgb(200, 180, 110))
	t.sgr[csFloorDim] = fg(rgb(70, 70, 100))
	t.sgr[csWallLit] = fg(rgb(190, 160, 100))
	t.sgr[csWallDim] = fg(rgb(90, 90, 120))
	t.sgr[csStairsLit] = ansi.Style{}.Bold().ForegroundColor(rgb(255, 255, 255)).String()
	t.sgr[csStairsDim] = fg(rgb(130, 130, 160))
	t.sgr[csPlayer] = ansi.Style{}.Bold().ForegroundColor(rgb(255, 255, 255)).String()
	t.sgr[csOrc] = fg(rgb(110, 200, 90))
	t.sgr[csTroll] = ansi.Style{}.Bold().ForegroundColor(rgb(40, 170, 40)).String()
	t.sgr[csCorpse] = fg(rgb(191, 0, 0))
	t.sgr[csOther] = fg(rgb(255, 255, 0))
	t.sgr[csPotion] = fg(rgb(200, 100, 255))
	t.sgr[csScroll] = fg(rgb(255, 230, 100))
}

// chrome sets the colours of text around the map; Bubble Tea downsamples them.
func (t *theme) chrome() {
	st := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	t.msg = map[game.MsgKind]lipgloss.Style{
		game.MsgInfo:        st(rgb(255, 255, 255)),
		game.MsgWelcome:     st(rgb(32, 160, 255)),
		game.MsgPlayerHit:   st(rgb(224, 224, 224)),
		game.MsgEnemyHit:    st(rgb(255, 160, 160)),
		game.MsgEnemyDeath:  st(rgb(255, 160, 48)),
		game.MsgPlayerDeath: st(rgb(255, 48, 48)),
		game.MsgDescend:     st(rgb(159, 63, 255)),
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
}

// msgStyle returns the style of a message kind (white for unknown kinds).
func (t *theme) msgStyle(k game.MsgKind) lipgloss.Style {
	if s, ok := t.msg[k]; ok {
		return s
	}
	return t.msg[game.MsgInfo]
}

// actorStyle picks the cell style of an actor by its kind.
func actorStyle(a game.Actor) cellStyle {
	switch {
	case a.Corpse:
		return csCorpse
	case a.Kind == "player":
		return csPlayer
	case a.Kind == "orc":
		return csOrc
	case a.Kind == "troll":
		return csTroll
	}
	return csOther
}

// itemStyle picks the cell style of an item: potions and scrolls differ.
func itemStyle(k game.ItemKind) cellStyle {
	if k.Potion() {
		return csPotion
	}
	return csScroll
}
