package tui

// This file is the game-over screen (so that every death is one
// the player can understand): what ended the game and how, the score and its rank, and
// the last messages, as many as fit; v opens the whole log.

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// gameOverScreen ends a game, in death (what killed the player and how) or
// victory, with the score, its rank and the last messages.
type gameOverScreen struct {
	rank  int
	err   error // the score could not be recorded
	board int   // a daily's: how many scores its day's board holds, 0 when unknown
	today bool  // a daily's: its date is today's (UTC, by Player.Now)
}

// newGameOver is the game-over screen of m's game, which has just ended;
// err says its score could not be recorded. For a daily it counts the
// day's board (DailyBoard) here, in Update, not in the view.
func newGameOver(m *Model, err error) *gameOverScreen {
	s := &gameOverScreen{rank: m.p.Play.Rank(), err: err}
	if d := m.game.Daily(); d != "" {
		s.today = d == m.p.Now().UTC().Format("2006-01-02")
		if b, ok := m.p.Daily.(DailyBoard); ok && err == nil {
			if n, err := b.DailyEntries(d); err == nil {
				s.board = max(n, s.rank)
			}
		}
	}
	return s
}

// dailyPlace says where a daily's score stands on its day's board: "Your
// score is on today's daily board, 2026-12-02: 3rd of 14".
func (s *gameOverScreen) dailyPlace(date string) string {
	board := "the daily board of " + date
	if s.today {
		board = "today's daily board, " + date
	}
	if s.board > 0 {
		return fmt.Sprintf("Your score is on %s: %s of %d", board, ordinal(s.rank), s.board)
	}
	return fmt.Sprintf("Your score is on %s: %s", board, ordinal(s.rank))
}

// ordinal writes n as "1st", "2nd", "3rd", "4th", "11th", "22nd".
func ordinal(n int) string {
	suffix := "th"
	switch n % 10 {
	case 1:
		suffix = "st"
	case 2:
		suffix = "nd"
	case 3:
		suffix = "rd"
	}
	if n%100 >= 11 && n%100 <= 13 {
		suffix = "th"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

func (s *gameOverScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	switch k.String() {
	case "enter", "esc", "space", "q":
		m.p.Play.Leave()
		return newTitle(m, ""), nil
	case "v":
		return newLogScreen(m, s), nil
	}
	return s, nil
}

// gameOverWidth is the widest the screen's text runs, in cells, so that it
// reads as a block on wide terminals.
const gameOverWidth = 78

func (s *gameOverScreen) view(m *Model) string {
	th := m.th
	w := min(m.w, gameOverWidth)
	compact := m.h < 20 // no blank lines or heading: room for messages
	top := s.summary(m, w, compact)
	foot := "Enter: title screen · v: the whole message log"
	if compact {
		foot = "Enter: title · v: message log"
	}
	// The last messages fill the rows left: a blank line and a heading
	// above them, a blank line and the footer below (only the footer when
	// compact).
	rows := m.h - len(top) - 4
	if compact {
		rows = m.h - len(top) - 1
	}
	var b strings.Builder
	b.WriteString(strings.Join(top, "\n") + "\n")
	if rows >= 1 {
		if !compact {
			b.WriteString("\n" + th.heading.Render("Last messages") + "\n")
		}
		for _, l := range lastMessages(m, w, rows) {
			b.WriteString(l + "\n")
		}
	}
	if !compact {
		b.WriteString("\n")
	}
	b.WriteString(th.dim.Render(truncate(foot, w)))
	return m.center(lipgloss.NewStyle().MaxWidth(m.w).MaxHeight(m.h).Render(b.String()))
}

// summary is the top of the game-over screen, each line wrapped to w
// cells: how the game ended, after how many turns, the score and kills,
// and where it stands (the rank, the daily's place, or why it is not on
// the table); compact leaves out the blank line.
func (s *gameOverScreen) summary(m *Model, w int, compact bool) []string {
	th, g := m.th, m.game
	var top []string
	add := func(st lipgloss.Style, text string) {
		for _, l := range strings.Split(ansi.Wordwrap(text, w, ""), "\n") {
			top = append(top, st.Render(truncate(l, w)))
		}
	}
	if g.Won() {
		add(th.title, "You escaped the grotto!")
		if !compact {
			add(th.text, "")
		}
		add(th.text, fmt.Sprintf("You climbed out into daylight after %d turns.", g.Turn()))
	} else {
		add(th.hpLow, "You died.")
		if !compact {
			add(th.text, "")
		}
		add(th.text, fmt.Sprintf("%s after %d turns.", youDied(g.Cause()), g.Turn()))
	}
	add(th.title, fmt.Sprintf("Score: %d   Monsters slain: %d", g.Score(), g.Kills()))
	switch {
	case s.err != nil && g.Cheated():
		add(th.hpLow, "The end of your game could not be recorded: "+s.err.Error())
	case s.err != nil:
		add(th.hpLow, "Your score could not be recorded: "+s.err.Error())
	case g.Cheated():
		add(th.dim, "Cheats were used in this game, so it is not on the high-score table.")
	case g.Daily() != "":
		add(th.heading, s.dailyPlace(g.Daily()))
	default:
		add(th.heading, fmt.Sprintf("Rank #%d on the high-score table", s.rank))
	}
	return top
}

// lastMessages returns the game's newest messages, each word-wrapped to w
// cells and styled by kind, as at most rows lines, oldest first.
func lastMessages(m *Model, w, rows int) []string {
	var lines []string // newest first
	for i := m.game.LogLen() - 1; i >= 0 && len(lines) < rows; i-- {
		msg := m.game.Message(i)
		wrapped := strings.Split(ansi.Wordwrap(msgText(msg), w, ""), "\n")
		for j := len(wrapped) - 1; j >= 0 && len(lines) < rows; j-- {
			lines = append(lines, m.th.msgStyle(msg.Kind).Render(truncate(wrapped[j], w)))
		}
	}
	slices.Reverse(lines)
	return lines
}

// youDied says the cause of the player's death as a sentence's start: "You
// were killed by an orc on depth 2", but "You starved to death on depth 3"
// (a tester read "You were starved to death").
func youDied(cause string) string {
	if strings.HasPrefix(cause, "killed ") {
		return "You were " + cause
	}
	return "You " + cause
}
