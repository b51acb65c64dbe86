package tui

// This file: the replay player. A finished game plays back at
// the viewer's terminal size, drawn as the play screen draws a game, at 1×
// to 32×, paused, stepped one command at a time (a turn, or a level-up,
// which takes none: the counter shows the game's turn), jumped to the next depth or
// to its end. The timing lives here (tea.Tick); game/replay only steps.
// When the replay reaches the end it has checked the final state against
// the record: a game that does not match says so and shows its dump, as
// does one that cannot be played at all (other rules, no history).

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
)

// ReplayGame is a finished game as the replay player needs it.
type ReplayGame struct {
	ID   uint64 // the game's id, as `ssh host replays` lists it
	Name string // the player's name, as recorded
	// Replay is the game at turn 0; nil when it cannot be played (Why
	// says why), and the dump is shown instead.
	Replay *replay.Replay
	// Why says, in the viewer's words, why Replay is nil (another
	// version of the rules, no history kept).
	Why string
	// Dump is the game's plain-text account (replay.Dump), "" if none was
	// kept.
	Dump string
	// Turns is the game's last turn (game.Turn at its end, store.Score's
	// Turns), which the replay counts up to; 0 if unknown.
	Turns int
}

// Replays opens finished games for the title's score table (a row's
// GameID); the server implements it.
type Replays interface {
	// OpenReplay returns finished game id ready to play back, or, when it
	// cannot be played, with Replay nil and Why set. err, in the player's
	// words, means it could not be read (unknown, damaged, the store out
	// of reach).
	OpenReplay(id uint64) (ReplayGame, error)
}

// Replay speeds, in turns a second at 1× (ReplayTurnsPerSecond) times the
// speed: 1×, 2×, 4×, … MaxReplaySpeed×.
const (
	ReplayTurnsPerSecond = 4
	MaxReplaySpeed       = 32
	// replayMinTick is the shortest tick: beyond it a tick replays
	// several turns (a frame per tick is plenty).
	replayMinTick = 1000 * time.Millisecond / ReplayTurnsPerSecond / 8
)

// NewReplayer returns a model that only plays back rg (the replay player
// of `ssh -t host replay ID` and of the web's replay page), playing at 1×
// from turn 0 at once. data is the game
// data (nil means content.Default()). q, Esc or Ctrl+C quits the program.
func NewReplayer(rg ReplayGame, data *content.Tables) *Model {
	m := New(Player{Data: data, Play: noPlay{}})
	r := newReplayScreen(m, rg, nil)
	m.scr, m.start = r, r.schedule()
	return m
}

// replayScreen plays back one finished game.
type replayScreen struct {
	back   screen // the title it was opened from; nil for a replayer only
	rg     ReplayGame
	speed  int  // 1, 2, 4, … MaxReplaySpeed
	paused bool // no ticks; . steps
	err    error
	keys   bool        // showing the replay's keys (?): the replay holds still
	gen    int         // the tick generation: a tick of an older one is stale
	board  *playScreen // draws the game with its own camera
	dump   *dumpScreen // the account shown instead, when the game cannot be played or did not match
	// recorded is the speed a recording of the replay plays at, as its
	// status line says it ("4×"), which then names no keys
	// (ReplayFrames); "" in the replay player.
	recorded string
}

// replayTick is one tick of generation gen.
type replayTick struct{ gen int }

func newReplayScreen(m *Model, rg ReplayGame, back screen) *replayScreen {
	r := &replayScreen{back: back, rg: rg, speed: 1, board: newPlay()}
	if rg.Replay == nil {
		why := rg.Why
		if why == "" {
			why = "This game cannot be played back."
		}
		r.dump = &dumpScreen{title: r.title(), note: why, text: rg.Dump}
		return r
	}
	m.game = rg.Replay.Game()
	return r
}

// title is "Replay of NAME (game #ID)".
func (r *replayScreen) title() string {
	return fmt.Sprintf("Replay of %s (game #%d)", Inert(r.rg.Name), r.rg.ID)
}

// period returns the time between ticks and the turns each tick replays at
// the current speed.
func (r *replayScreen) period() (time.Duration, int) {
	d := time.Second / time.Duration(ReplayTurnsPerSecond*r.speed)
	if d >= replayMinTick {
		return d, 1
	}
	return replayMinTick, r.speed * ReplayTurnsPerSecond * int(replayMinTick) / int(time.Second)
}

// schedule starts a new tick generation (dropping the ticks of the old
// one) when the replay runs; nil when it is paused or over.
func (r *replayScreen) schedule() tea.Cmd {
	r.gen++
	if r.paused || r.keys || r.over() {
		return nil
	}
	return r.tick()
}

func (r *replayScreen) tick() tea.Cmd {
	d, _ := r.period()
	gen := r.gen
	return tea.Tick(d, func(time.Time) tea.Msg { return replayTick{gen} })
}

// over reports whether nothing more plays: the end, a mismatch, or a dump.
func (r *replayScreen) over() bool {
	return r.dump != nil || r.err != nil || r.rg.Replay.Done()
}

func (r *replayScreen) async(m *Model, msg tea.Msg) (screen, tea.Cmd) {
	t, ok := msg.(replayTick)
	if !ok || t.gen != r.gen || r.paused || r.keys || r.over() {
		return r, nil
	}
	_, n := r.period()
	for range n {
		if r.step(m) != nil || r.over() {
			return r, nil
		}
	}
	return r, r.tick()
}

// step replays one turn; a mismatch stops the replay and shows the dump.
func (r *replayScreen) step(m *Model) error {
	return r.did(m, r.rg.Replay.Step())
}

// did takes the outcome of a replay move: on a mismatch the replay stops
// where it was and the dump is shown, saying so.
func (r *replayScreen) did(m *Model, err error) error {
	m.game = r.rg.Replay.Game()
	if err == nil {
		return nil
	}
	r.err = err
	// A mismatch is one sentence (replay.Mismatch): what differs, at
	// which turn.
	why := sentence(err.Error()) + " It is not shown as if it did; here is its account instead."
	if !errors.Is(err, replay.ErrMismatch) {
		why = "This replay stopped: " + err.Error()
	}
	r.dump = &dumpScreen{title: r.title(), note: why, text: r.rg.Dump}
	return err
}

func (r *replayScreen) leave(m *Model) (screen, tea.Cmd) {
	r.gen++ // no tick of this screen plays on
	if r.back == nil {
		m.exit = ExitQuit
		return r, tea.Quit
	}
	if t, ok := r.back.(*titleScreen); ok && t.pick { // back to the pick, on the row played
		t.note = ""
		t.rereadScores(m)
		return t, nil
	}
	return newTitle(m, ""), nil
}

func (r *replayScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	key := k.String()
	if r.keys { // any key goes back to the replay, and only that
		r.keys = false
		return r, r.schedule()
	}
	if key == "q" || key == "esc" {
		return r.leave(m)
	}
	if key == "?" && r.dump == nil { // the status line's "? help"
		r.keys = true
		return r, r.schedule()
	}
	if r.dump != nil {
		r.dump.scroll(m, key)
		return r, nil
	}
	rp := r.rg.Replay
	switch key {
	case "space", " ":
		r.paused = !r.paused
		return r, r.schedule()
	case "+", "=":
		r.speed = min(MaxReplaySpeed, r.speed*2)
		return r, r.schedule()
	case "-", "_":
		r.speed = max(1, r.speed/2)
		return r, r.schedule()
	case ".", "right":
		r.paused = true
		r.step(m)
		return r, r.schedule()
	case ">":
		r.did(m, rp.NextDepth())
		return r, r.schedule()
	case "end", "G":
		r.did(m, rp.End())
		return r, r.schedule()
	}
	return r, nil
}

// status is "Replay of NAME · turn T/N · 8× · paused" and the end's word.
// T and N are the game's turns (game.Turn, as its status line shows it),
// not the commands replayed: a level-up is a step that takes no turn.
func (r *replayScreen) status() string {
	rp := r.rg.Replay
	turn, last := rp.Game().Turn(), r.rg.Turns
	if rp.Done() {
		last = turn
	}
	of := ""
	if last > 0 {
		of = fmt.Sprintf("/%d", last)
	}
	speed := fmt.Sprintf("%d×", r.speed)
	if r.recorded != "" {
		speed = r.recorded
	}
	s := fmt.Sprintf("Replay of %s · turn %d%s · %s", Inert(r.rg.Name), turn, of, speed)
	switch {
	case rp.Done():
		g := rp.Game()
		if g.Won() {
			s += " · the end: escaped the grotto, checked"
		} else {
			s += " · the end: " + game.ThirdPerson(g.Cause()) + ", checked"
		}
	case r.paused:
		s += " · paused"
	}
	return s
}

// replayHints name the replay's keys, longest first: the replay's bottom
// row is the longest that fits the width (replayHint).
var replayHints = []string{
	"space pause · +/- speed · . step · > next depth · G end · q leave",
	"space pause · +/- speed · G end · q leave · ? keys",
	"space pause · q leave · ? keys",
	"q leave · ? keys",
}

// replayHint is the replay's keys in one row of at most w columns: the
// longest of replayHints that fits, or the shortest cut to w.
func replayHint(w int) string {
	for _, h := range replayHints {
		if ansi.StringWidth(h) <= w {
			return h
		}
	}
	return truncate(replayHints[len(replayHints)-1], w)
}

// replayKeys are the lines of the replay's keys (?): key, then what it
// does, padded to one column.
var replayKeys = [][2]string{
	{"space", "pause, play on"},
	{"+ -", "speed ×2, ÷2 (1× to 32×)"},
	{". →", "step: pause, one command"},
	{">", "on to the next depth"},
	{"G End", "the end, checked"},
	{"q Esc", "leave the replay"},
}

// keysView lists the replay's keys, centred, within 40x12.
func (r *replayScreen) keysView(m *Model) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.heading.Render("Replay keys") + "\n\n")
	for _, k := range replayKeys {
		b.WriteString(th.text.Render(truncate(fmt.Sprintf("%-6s %s", k[0], k[1]), m.w-2)) + "\n")
	}
	b.WriteString("\n" + th.dim.Render(truncate("Any key: back to the replay", m.w-2)))
	return m.center(b.String())
}

func (r *replayScreen) view(m *Model) string {
	if r.dump != nil {
		return r.dump.view(m)
	}
	if r.keys {
		return r.keysView(m)
	}
	if r.recorded != "" { // a recording: no keys to name
		return r.board.render(m, m.game, nil, r.status())
	}
	// The status may wrap (the end's cause is long); the keys are a row of
	// their own, last, fitted to the width, so they read whole and a row
	// never runs past the terminal's edge.
	return r.board.render(m, m.game, nil, r.status()+"\n"+replayHint(m.w))
}

// settle keeps the replayed player in view.
func (r *replayScreen) settle(m *Model) {
	if r.dump == nil && m.game != nil {
		r.board.follow(m, m.game, m.game.Player().Pos)
	}
}

// sentence returns msg with an upper-case first letter and a full stop.
func sentence(msg string) string {
	if msg != "" && msg[0] >= 'a' && msg[0] <= 'z' {
		msg = string(msg[0]-'a'+'A') + msg[1:]
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// dumpScreen shows a finished game's account instead of its replay,
// scrollable, with the reason above it.
type dumpScreen struct {
	title, note, text string
	top               int
}

func (d *dumpScreen) lines(m *Model) []string {
	var out []string
	text := d.text
	if text == "" {
		text = "(No account was kept of this game.)"
	}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		out = append(out, truncate(Inert(l), m.w))
	}
	return out
}

// head is the title and the reason, wrapped to the width.
func (d *dumpScreen) head(m *Model) []string {
	return append([]string{d.title}, strings.Split(ansi.Wordwrap(d.note, max(1, m.w), ""), "\n")...)
}

func (d *dumpScreen) rows(m *Model) int { return max(1, m.h-len(d.head(m))-2) }

func (d *dumpScreen) scroll(m *Model, key string) {
	rows, n := d.rows(m), len(d.lines(m))
	switch key {
	case "up", "k":
		d.top--
	case "down", "j":
		d.top++
	case "pgup", "b":
		d.top -= rows
	case "pgdown", "space", " ", "f":
		d.top += rows
	case "home", "g":
		d.top = 0
	case "end", "G":
		d.top = n
	}
	d.top = max(0, min(d.top, n-rows))
}

func (d *dumpScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	head := d.head(m)
	b.WriteString(th.title.Render(truncate(head[0], m.w)) + "\n")
	for _, l := range head[1:] {
		b.WriteString(th.hpLow.Render(l) + "\n")
	}
	b.WriteString("\n")
	lines, rows := d.lines(m), d.rows(m)
	top := max(0, min(d.top, len(lines)-rows))
	for i := top; i < len(lines) && i < top+rows; i++ {
		b.WriteString(th.text.Render(lines[i]) + "\n")
	}
	b.WriteString(th.dim.Render(truncate("↑/↓ scroll · q leave", m.w)))
	return b.String()
}
