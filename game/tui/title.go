package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
)

// titleScreen is the first screen: the menu (Continue when a save exists,
// Continue the daily when one is kept beside it, New game, Quit) and the
// top 10 scores.
type titleScreen struct {
	items    []string
	sel      int
	save     *game.Game // the readable saved game, if any
	daily    *game.Game // the daily kept beside it (Play.SavedDaily), if any
	saveErr  error      // a save exists but cannot be read
	scores   []ScoreRow
	scoreErr error
	scoresAt uint64 // Board.Changes when the scores were read
	note     string // a line for the player, e.g. why they are back here
	confirm  string // the item (New game, Daily challenge) asking whether to abandon the saved game (or daily); "" for none
	live     []LiveGame
	pick     bool // choosing a row of the score table to replay
	row      int  // the row chosen, while pick
}

const (
	itemContinue = "Continue"
	// itemContinueOwn is Continue when a daily is kept too.
	itemContinueOwn = "Continue your game"
	// itemContinueToday and itemContinueDaily continue the daily kept
	// beside the game of the player's own: today's, or an earlier day's.
	itemContinueToday = "Continue today's daily"
	itemContinueDaily = "Continue the daily"
	itemNew           = "New game"
	itemWatch         = "Watch a game"
	itemDaily         = "Daily challenge"
	itemReplays       = "Replays"
	itemSettings      = "Settings"
	itemQuit          = "Quit"
)

func newTitle(m *Model, note string) *titleScreen {
	t := &titleScreen{note: note}
	t.read(m)
	m.game = nil
	if m.p.Board == nil {
		t.scoreErr = errors.New("no score table")
	} else {
		t.scoresAt = m.p.Board.Changes()
		t.scores, t.scoreErr = m.p.Board.TopScores(10)
	}
	t.refreshLive(m)
	m.publish()
	return t
}

// read reads the saved games (Play.Open): the key's own and the daily
// kept beside it, or why they cannot be read, and what the player must
// read of them (news replaces the note).
func (t *titleScreen) read(m *Model) {
	var news string
	t.save, news, t.saveErr = m.p.Play.Open()
	t.daily = m.p.Play.SavedDaily()
	if news != "" {
		t.note = news
	}
}

// rereads implements rereader: a save that could not be read for now
// (the store is out of reach) is read again every rereadEvery while the
// title shows.
func (t *titleScreen) rereads() bool { return passing(t.saveErr) }

// reread implements rereader: once the save is read the menu offers
// Continue, with the cursor on it as on a title that read it at once.
func (t *titleScreen) reread(m *Model) (screen, tea.Cmd) {
	t.read(m)
	t.refreshLive(m)
	if t.save != nil || t.daily != nil {
		t.sel = 0
	}
	return t, nil
}

// refreshLive reads the live games from the lobby again, and the scores
// when the table changed since they were read (Board.Changes), and
// rebuilds the menu (Watch a game only when there is one, Replays only
// when a row has one), keeping the choice the cursor is on. The model
// calls it on the server's RelistMsg (every few seconds) and
// IdleCheckMsg and on every key, so the lists follow the lobby and the
// games that end while the title is shown without a timer of its own.
func (t *titleScreen) refreshLive(m *Model) {
	if m.p.Board != nil && m.p.Board.Changes() != t.scoresAt {
		t.rereadScores(m)
	}
	was := ""
	if t.sel < len(t.items) {
		was = t.items[t.sel]
	}
	t.live = m.p.Lobby.Games()
	t.items = t.items[:0]
	switch {
	case t.save != nil && t.daily != nil:
		t.items = append(t.items, itemContinueOwn)
	case t.save != nil:
		t.items = append(t.items, itemContinue)
	}
	if t.daily != nil {
		t.items = append(t.items, t.dailyItem(m))
	}
	t.items = append(t.items, itemNew)
	if m.p.Daily != nil {
		t.items = append(t.items, itemDaily)
	}
	if len(t.live) > 0 {
		t.items = append(t.items, itemWatch)
	}
	if t.replayable(m) {
		t.items = append(t.items, itemReplays)
	}
	t.items = append(t.items, itemSettings, itemQuit)
	t.sel = 0
	for i, it := range t.items {
		if it == was {
			t.sel = i
		}
	}
}

func (t *titleScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	t.refreshLive(m)
	if t.confirm != "" {
		item := t.confirm
		t.confirm = ""
		if k.String() == "y" || k.String() == "Y" {
			return t.start(m, item)
		}
		return t, nil
	}
	if t.pick {
		return t.pickRow(m, k)
	}
	switch k.String() {
	case "up", "k":
		t.sel = (t.sel + len(t.items) - 1) % len(t.items)
	case "down", "j", "tab":
		t.sel = (t.sel + 1) % len(t.items)
	case "c":
		if t.save != nil {
			return t.choose(m, itemContinue)
		}
		if t.daily != nil {
			return t.choose(m, t.dailyItem(m))
		}
	case "n":
		return t.choose(m, itemNew)
	case "w":
		if len(t.live) > 0 {
			return t.choose(m, itemWatch)
		}
	case "d":
		if m.p.Daily != nil {
			return t.choose(m, itemDaily)
		}
	case "r":
		if t.replayable(m) {
			return t.choose(m, itemReplays)
		}
	case "o", "O":
		return t.choose(m, itemSettings)
	case "q", "Q": // not Esc, which backs out of everything else: two of them would end the session
		return t.choose(m, itemQuit)
	case "enter", "space", " ":
		return t.choose(m, t.items[t.sel])
	}
	return t, nil
}

func (t *titleScreen) choose(m *Model, item string) (screen, tea.Cmd) {
	switch item {
	case itemContinue, itemContinueOwn, itemContinueToday, itemContinueDaily:
		cont := m.p.Play.Continue
		if item == itemContinueToday || item == itemContinueDaily {
			cont = m.p.Play.ContinueDaily
		}
		if err := cont(); err != nil {
			t.note = err.Error()
			return t, nil
		}
		m.game = m.p.Play.Game()
		m.publish()
		return m.afterTurn(newPlay()), nil
	case itemWatch:
		return newWatchList(m, t), nil
	case itemSettings:
		return newSettings(t), nil
	case itemReplays:
		t.pick, t.row = true, 0
		return t, nil
	case itemNew, itemDaily:
		if item == itemDaily && t.daily != nil && t.daily.Daily() == today(m) {
			// Its attempt is taken: starting it again would be refused.
			t.note = "Today's daily is kept: choose " + itemContinueToday + " to play it on."
			return t, nil
		}
		if item == itemDaily && t.save != nil && t.save.Daily() == today(m) {
			// Its attempt is taken: starting it again would be refused, and
			// asking to throw the save away would say what does not happen.
			t.note = "Your saved game is today's daily: choose Continue to play it on."
			return t, nil
		}
		// The daily is kept beside the game of the player's own:
		// starting it replaces only an earlier daily, New game only
		// the player's own game.
		replaced := t.save
		if item == itemDaily {
			replaced = t.daily
		}
		if replaced != nil || t.saveErr != nil {
			t.confirm = item
			return t, nil
		}
		return t.start(m, item)
	}
	m.exit = ExitQuit
	return t, tea.Quit
}

// start begins a new game (item New game) or today's daily (Daily
// challenge), once the player agreed to lose the saved game (or daily)
// it replaces.
func (t *titleScreen) start(m *Model, item string) (screen, tea.Cmd) {
	if item != itemDaily {
		return m.startNew(), nil
	}
	err := m.p.Daily.StartDaily()
	g := m.p.Play.Game()
	if g == nil || g.Daily() == "" || g.Over() { // not started: today's is done, or the store is away
		if err != nil {
			t.note = err.Error()
		}
		return t, nil
	}
	m.game = g
	p := newPlay()
	if err != nil { // started, but its first save failed
		p.note = err.Error()
	}
	m.publish()
	return p, nil
}

// replayable reports whether a row of the score table has a replay.
func (t *titleScreen) replayable(m *Model) bool {
	if m.p.Replays == nil {
		return false
	}
	for _, s := range t.scores {
		if s.GameID != 0 {
			return true
		}
	}
	return false
}

// pickRow handles a key while the player picks a score row to replay:
// ↑/↓ choose, Enter plays it back, Esc or q goes back to the menu.
func (t *titleScreen) pickRow(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	n := len(t.scores)
	switch k.String() {
	case "up", "k":
		t.row = (t.row + n - 1) % n
	case "down", "j", "tab":
		t.row = (t.row + 1) % n
	case "esc", "q":
		t.pick = false
	case "enter", "space", " ":
		s := t.scores[t.row]
		if s.GameID == 0 { // none kept, or set aside as damaged
			t.note = "That game has no replay."
			return t, nil
		}
		rg, err := m.p.Replays.OpenReplay(s.GameID)
		if err != nil {
			t.note = err.Error()
			t.rereadScores(m) // a game found damaged has just been set aside: its row offers it no more
			return t, nil
		}
		r := newReplayScreen(m, rg, t)
		return r, r.schedule()
	}
	return t, nil
}

// rereadScores reads the score table again, keeping the cursor of the
// pick on the game it was on (a better score that came in above it moves
// it down a row), and leaves the pick when no row has a replay any more;
// a table that cannot be read now is left as it was, to be read again on
// the next RelistMsg.
func (t *titleScreen) rereadScores(m *Model) {
	if m.p.Board == nil {
		return
	}
	at := m.p.Board.Changes()
	rows, err := m.p.Board.TopScores(10)
	if err != nil {
		return // scoresAt unchanged: tried again on the next relist
	}
	t.scoresAt = at
	row := min(t.row, len(rows)-1)
	if t.row < len(t.scores) && t.scores[t.row].GameID != 0 {
		for i, r := range rows {
			if r.GameID == t.scores[t.row].GameID {
				row = i
			}
		}
	}
	t.scores, t.row, t.scoreErr = rows, max(0, row), nil
	if t.pick {
		t.pick = t.replayable(m)
	}
}

// startNew begins a fresh game and saves it at once, so that even a game
// abandoned on its first turn is resumed, not lost.
func (m *Model) startNew() screen {
	err := m.p.Play.Start()
	m.game = m.p.Play.Game()
	p := newPlay()
	if err != nil {
		p.note = err.Error()
	}
	m.publish()
	return p
}

func (t *titleScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.title.Render("G R O T T O") + "\n")
	b.WriteString(th.dim.Render("a roguelike under the limestone") + "\n\n")
	items := t.items
	if t.pick || t.confirm != "" { // the table or the question needs the room, and the menu is not in use
		items = nil
	}
	b.WriteString(t.menu(m, items))
	note, noteLines := t.noteBlock(m)
	b.WriteString(note)
	// Lines above and below the table but for the live games: title 2,
	// blank, menu, blank, note 1-2, blank, heading; below it: blank,
	// hint. Picking a row to replay, the menu and its blank give way to
	// the table, which scrolls to keep the chosen row in view (40x12
	// shows 4 rows). Asking whether to give up the saved game, the
	// question takes the menu's place. The live games take what the
	// table (up to 10 rows) leaves.
	extra := max(2, noteLines) - 2 // a note wrapped on more than 2 lines
	free := m.h - 10 - len(items) - extra
	switch {
	case t.pick:
		free = m.h - 8 - extra // no menu, nor its blank line
	case t.confirm != "":
		free = m.h - 7 - noteLines // the question in the menu's place
	}
	live, liveLines := t.liveBlock(m, free-max(1, min(10, len(t.scores))))
	b.WriteString(live)
	b.WriteString("\n" + th.heading.Render("Top scores") + "\n")
	rows := min(10, free-liveLines)
	b.WriteString(t.scoreRows(m, rows))
	b.WriteString("\n" + th.dim.Render(truncate(t.hint(m), m.w-2)))
	return m.center(b.String())
}

// menu is the title's menu of items, the chosen one marked, and a blank
// line under it; "" with no items.
func (t *titleScreen) menu(m *Model, items []string) string {
	th := m.th
	var b strings.Builder
	for i, it := range items {
		if i == t.sel {
			// The mark shows the choice where colours and reverse video do
			// not (TERM=dumb, colour "none"; a tester's finding).
			b.WriteString(th.selected.Render("> " + it + "  "))
		} else {
			b.WriteString(th.text.Render(fmt.Sprintf("  %s  ", it)))
		}
		b.WriteString("\n")
	}
	if len(items) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// noteBlock is the line, or lines wrapped, under the menu, and how many
// lines it takes: the question asked, a save that failed, a note, or the
// saved games; a blank line for none.
func (t *titleScreen) noteBlock(m *Model) (string, int) {
	th := m.th
	lines := 1
	wrap := func(s string) string {
		s = ansi.Wordwrap(s, max(1, m.w-2), "")
		lines = strings.Count(s, "\n") + 1
		return s
	}
	switch {
	case t.confirm != "":
		return th.hpLow.Render(wrap(t.confirmText(m))) + "\n", lines
	case passing(t.saveErr):
		return th.hpLow.Render(wrap(t.saveErr.Error()+" Trying again every second.")) + "\n", lines
	case t.saveErr != nil:
		return th.hpLow.Render(wrap(t.saveErr.Error())) + "\n", lines
	case t.note != "":
		return th.text.Render(wrap(t.note)) + "\n", lines
	case t.save != nil || t.daily != nil:
		var line string
		for _, g := range []*game.Game{t.save, t.daily} {
			switch {
			case g == nil:
			case line == "":
				line = saveLine(g)
			default: // "Saved game: depth 3, turn 812; the daily 2026-11-30, depth 1, turn 0"
				line += "; " + strings.TrimPrefix(saveLine(g), "Saved game: ")
			}
		}
		return th.dim.Render(wrap(line)) + "\n", lines
	}
	return "\n", lines
}

// liveBlock is "Playing now" and the live games, on a terminal at least
// 30 rows high, and how many lines it takes: as many games as fit in
// avail lines (at least three), then "… and N more".
func (t *titleScreen) liveBlock(m *Model, avail int) (string, int) {
	if len(t.live) == 0 || m.h < 30 {
		return "", 0
	}
	th := m.th
	var b strings.Builder
	b.WriteString(th.heading.Render("Playing now") + "\n")
	b.WriteString(th.dim.Render("  "+truncate(gameHeader(), m.w-4)) + "\n")
	shown := len(t.live)
	if room := avail - 2; shown > max(3, room) {
		shown = max(3, room-1) // and a line for the rest
	}
	for _, g := range t.live[:shown] {
		b.WriteString(th.text.Render("  "+truncate(gameLine(g, m.p.Now()), m.w-4)) + "\n")
	}
	lines := 2 + shown
	if more := len(t.live) - shown; more > 0 {
		b.WriteString(th.dim.Render(fmt.Sprintf("  … and %d more", more)) + "\n")
		lines++
	}
	return b.String(), lines
}

// scoreRows is up to rows rows of the top scores, scrolled to keep the row
// chosen to replay in view, or why there are none.
func (t *titleScreen) scoreRows(m *Model, rows int) string {
	th := m.th
	var b strings.Builder
	top := 0 // the first row shown: the chosen one stays in view
	if t.pick && rows > 0 {
		top = max(0, min(t.row-rows+1, len(t.scores)-rows))
	}
	switch {
	case t.scoreErr != nil:
		b.WriteString(th.dim.Render("(scores unavailable)") + "\n")
	case len(t.scores) == 0:
		b.WriteString(th.dim.Render("No one has died yet. Be the first.") + "\n")
	}
	for i, s := range t.scores {
		if i < top {
			continue
		}
		if i >= top+rows {
			break
		}
		line := fmt.Sprintf("%2d. %-16s %6d  %s", i+1, Inert(s.Name), s.Points, game.ThirdPerson(s.Cause))
		if t.pick && i == t.row {
			b.WriteString(th.selected.Render(truncate("> "+line, m.w-2)) + "\n")
			continue
		}
		if t.pick { // in line with the chosen row's mark
			line = "  " + line
		}
		b.WriteString(th.text.Render(truncate(line, m.w-2)) + "\n")
	}
	return b.String()
}

// hint is the title's bottom line: the keys of what is on screen.
func (t *titleScreen) hint(m *Model) string {
	switch {
	case t.confirm != "":
		return "y yes · any other key keeps the save"
	case t.pick:
		hint := "↑/↓ choose a game · Enter watch its replay · Esc back"
		if len([]rune(hint)) > m.w-2 {
			hint = "↑/↓ choose · Enter watch · Esc back"
		}
		return hint
	}
	return "↑/↓ choose · Enter select · q quit"
}

// saveLine describes the saved game g under the menu: "Saved game: depth
// 3, turn 812", or "Saved game: the daily 2026-11-30, depth 1, turn 0".
func saveLine(g *game.Game) string {
	if d := g.Daily(); d != "" {
		return fmt.Sprintf("Saved game: the daily %s, depth %d, turn %d", d, g.Depth(), g.Turn())
	}
	return fmt.Sprintf("Saved game: depth %d, turn %d", g.Depth(), g.Turn())
}

// confirmText asks whether to give up the saved game for the item
// t.confirm. A saved daily is said to be one: its attempt is used up, so
// the player cannot come back to it (tester: nothing warned).
func (t *titleScreen) confirmText(m *Model) string {
	ask, g := "Start a new game?", t.save
	if t.confirm == itemDaily {
		ask, g = "Start today's daily?", t.daily
	}
	d := ""
	if g != nil {
		d = g.Daily()
	}
	switch {
	case d == "":
		return ask + " Your saved game will be lost. (y/n)"
	case d == today(m):
		return ask + " Your saved game is today's daily: it will be lost, its one attempt used up: it cannot be played again today. (y/n)"
	}
	return ask + " Your saved game, the daily " + d + ", will be lost for good: a daily cannot be played again. (y/n)"
}

// dailyItem is the menu item that continues the daily kept beside the
// player's own game: today's, or an earlier day's.
func (t *titleScreen) dailyItem(m *Model) string {
	if t.daily.Daily() == today(m) {
		return itemContinueToday
	}
	return itemContinueDaily
}

// today is the daily challenge's date now: the UTC day, "2006-01-02"
// (server/daily.go).
func today(m *Model) string { return m.p.Now().UTC().Format("2006-01-02") }

// truncate cuts plain text to at most w screen columns, ending it with
// "…" when cut; a wide character (CJK: two columns) counts as two, so a
// box never grows past its width (the breaker's called name of 24 CJK
// characters).
func truncate(s string, w int) string {
	if w < 1 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// truncateLeft is truncate from the left: the end of s, at most w screen
// columns, after a "…" when cut (a line being typed shows its end).
func truncateLeft(s string, w int) string {
	if w < 1 {
		return ""
	}
	if sw := ansi.StringWidth(s); sw > w {
		return ansi.TruncateLeft(s, sw-w+1, "…")
	}
	return s
}
