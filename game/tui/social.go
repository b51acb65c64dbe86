package tui

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/frame"
)

// This file holds the screens of a shared server: choosing a name, the
// choice when a key is already playing, the admins' cheat menu, and
// watching someone else's game.

// ValidName is what a player's name may be: 1–16 letters, digits, - and _.
var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,16}$`)

// ValidName reports whether name is a valid player name.
func ValidName(name string) bool { return validName.MatchString(name) }

// nameScreen asks a first-time player for a name.
type nameScreen struct {
	text string
	note string
}

func newNameScreen(suggest string) *nameScreen {
	if !ValidName(suggest) {
		suggest = ""
	}
	return &nameScreen{text: suggest}
}

func (s *nameScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	switch k.String() {
	case "enter":
		if !ValidName(s.text) {
			s.note = "A name is 1 to 16 letters, digits, - or _."
			return s, nil
		}
		if err := m.p.Lobby.ClaimName(s.text); err != nil {
			s.note = err.Error()
			return s, nil
		}
		m.p.Name, m.p.NeedName = s.text, false
		return newTitle(m, "Welcome, "+s.text+"!"), nil
	case "backspace", "ctrl+h":
		if r := []rune(s.text); len(r) > 0 {
			s.text = string(r[:len(r)-1])
		}
	case "ctrl+u":
		s.text = ""
	default:
		// Only what a name may hold is typed in; anything else (escape
		// sequences, control bytes, pastes of junk) is refused here.
		if t := k.Text; t != "" && len([]rune(s.text+t)) <= 16 && validName.MatchString(t) {
			s.text += t
		} else if t != "" {
			s.note = "Names use letters, digits, - and _ only (up to 16)."
		}
	}
	return s, nil
}

func (s *nameScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.title.Render("Welcome to the grotto") + "\n\n")
	b.WriteString(th.text.Render("Choose the name others will see:") + "\n\n")
	b.WriteString(th.selected.Render(" "+s.text+"_ ") + "\n\n")
	if s.note != "" {
		b.WriteString(th.hpLow.Render(s.note) + "\n")
	}
	b.WriteString(th.dim.Render("1–16 letters, digits, - or _ · Enter to accept"))
	return m.center(b.String())
}

// conflictScreen is shown when the key already has a live session.
type conflictScreen struct {
	note     string
	waiting  bool
	stranded bool // the game's node does not answer: it resumes here by itself
	// daily is the date of the daily the other session plays, "" for a
	// game of the key's own: the game a take-over carries on.
	daily string
	// title is the title read once the take-over was done, while the
	// saved game could not be read (the store out of reach): the screen
	// reads it again every rereadEvery, then carries the game on. nil
	// when not waiting for that.
	title *titleScreen
	tries int // reads of the save since the take-over, while title waits
	// other is the key's other session as last read (Lobby.Mine): what it
	// does decides what the screen offers to take over. Read on the
	// screen's start and on each key, never while drawing.
	other LiveGame
	// noGame is true when a take-over began while the other session had
	// no game open (on the title, watching someone): this one then goes
	// to the title, as that one was, rather than into a saved game.
	noGame bool
}

// relist reads the key's other session again (the server's RelistMsg,
// every few seconds), so that the screen never describes for long a
// session that has changed since it was drawn: one that has ended and
// one that came back meanwhile are told apart. Not at once on coming back
// from watching a session that ended: the lobby may list it a moment
// longer.
func (s *conflictScreen) relist(m *Model) {
	if s.waiting {
		return
	}
	g, ok := m.p.Lobby.Mine()
	switch {
	case ok:
		s.other = g
		if s.note == otherEnded {
			s.note = ""
		}
	case s.note == "":
		s.note = otherEnded
	}
}

// otherEnded is the conflict screen's note once the key's other session
// has ended.
const otherEnded = "Your other session has ended. Press t to play here."

// newConflict is the choice for a session whose key has another.
func newConflict(l Lobby) *conflictScreen {
	s := &conflictScreen{}
	s.other, _ = l.Mine()
	s.daily = s.other.Daily
	return s
}

// openGame reports whether the key's other session has a game open: in
// play, or ended and shown to its player. One on the title or watching
// someone has none: taking over loses nothing, and the screen says so
// instead of offering to take over a game (a community tester).
func (s *conflictScreen) openGame() bool {
	switch s.other.Activity.Doing {
	case OnTitle, Watching:
		return false
	}
	return true
}

func (s *conflictScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	if s.waiting {
		return s, nil
	}
	if g, ok := m.p.Lobby.Mine(); ok {
		s.other = g
	}
	switch k.String() {
	case "t", "T":
		s.daily = s.other.Daily
		s.waiting, s.noGame = true, !s.openGame()
		s.note = "Asking your other session to save and close…"
		if s.noGame {
			s.note = "Asking your other session to close…"
		}
		return s, m.takeOver()
	case "w", "W":
		g, ok := m.p.Lobby.Mine()
		if !ok {
			s.note = "That session has just ended. Press t to play."
			return s, nil
		}
		if w, cmd := startWatching(m, g, s); w != screen(s) {
			return w, cmd
		}
		s.note = "That session has just ended. Press t to play."
		if g.Hidden { // its node watches it for no one else until the day ends
			s.note = "Your game there is today's daily challenge, which cannot be watched from another node until 00:00 UTC. Press t to play it here."
		}
	case "l", "L", "q", "esc":
		m.exit = ExitQuit
		return s, tea.Quit
	}
	return s, nil
}

func (s *conflictScreen) async(m *Model, msg tea.Msg) (screen, tea.Cmd) {
	if n, ok := msg.(TakeOverNoteMsg); ok {
		if s.waiting {
			s.note = n.Note
		}
		return s, nil
	}
	done, ok := msg.(takeOverDone)
	if !ok {
		return s, nil
	}
	s.waiting, s.stranded = false, false
	if done.err != nil {
		s.note = "Could not take over (" + done.err.Error() + "); press t to try again."
		return s, nil
	}
	if m.p.NeedName { // the other session had not chosen a name yet
		return newNameScreen(m.p.Name), nil
	}
	t := newTitle(m, "")
	if passing(t.saveErr) { // the game is there, but the store cannot read it now
		s.title, s.waiting, s.stranded = t, true, true
		s.note = s.readNote(t)
		return s, nil
	}
	return s.carryOn(m, t)
}

// rereads implements rereader: the take-over is done and waits to read
// the saved game.
func (s *conflictScreen) rereads() bool { return s.title != nil }

// reread implements rereader: it reads the saved game again, and carries
// it on once read.
func (s *conflictScreen) reread(m *Model) (screen, tea.Cmd) {
	s.title.read(m)
	s.tries++
	if passing(s.title.saveErr) {
		s.note = s.readNote(s.title)
		return s, nil
	}
	t := s.title
	s.title, s.waiting, s.stranded = nil, false, false
	t.refreshLive(m)
	return s.carryOn(m, t)
}

// readNote says that the saved game waits to be read, with t's reason.
func (s *conflictScreen) readNote(t *titleScreen) string {
	return fmt.Sprintf("Waiting for storage: %s Trying again every second (%d tries so far).", t.saveErr.Error(), s.tries)
}

// carryOn goes on from the title t, read once the take-over was done, with
// the game the other session played.
func (s *conflictScreen) carryOn(m *Model, t *titleScreen) (screen, tea.Cmd) {
	// Carry on exactly where the other session stopped: the title if it
	// had no game open, the daily kept beside the key's own game if that
	// is what it played, else the save (an old daily saved in its place,
	// before a key kept both, too).
	if s.noGame {
		return t, nil
	}
	if s.daily != "" && t.daily != nil && t.daily.Daily() == s.daily {
		return t.choose(m, t.dailyItem(m))
	}
	if t.save != nil {
		return t.choose(m, itemContinue)
	}
	return t, nil
}

func (s *conflictScreen) view(m *Model) string {
	th := m.th
	w := max(20, min(m.w-4, 72))
	var b strings.Builder
	para := func(style lipgloss.Style, text string) {
		for _, line := range strings.Split(ansi.Wrap(text, w, " "), "\n") {
			b.WriteString(style.Render(line) + "\n")
		}
	}
	if s.stranded {
		b.WriteString(th.title.Render("Resuming your game") + "\n\n")
		para(th.dim, s.note)
		b.WriteString("\n" + th.dim.Render("Ctrl+C to leave; your game stays saved."))
		return m.center(b.String())
	}
	where := "in another session"
	if m.p.ConflictNode != "" {
		where = "on node " + Inert(m.p.ConflictNode)
	}
	heading := "This key is already playing"
	say := "Your key has a game open " + where + "."
	take := "take over: that session saves and closes, you carry on here"
	watch := "watch it"
	switch d := s.other.Activity.Doing; {
	case d == GameOver || d == Won: // no longer playing: the heading must not say it is
		heading = "This key is already connected"
		say = "Your key's game " + where + " has ended; that session shows how."
		take = "play here: that session closes, you go on from here"
		watch = "watch it: see how the game ended"
	case !s.openGame():
		heading = "This key is already connected"
		say = "Your key is connected " + where + ", which has no game open: it is " + s.other.Activity.Text() + "."
		take = "play here: that session closes; it has no game open, so nothing is lost"
		watch = "watch it: see its next game once it starts one"
	}
	b.WriteString(th.title.Render(heading) + "\n\n")
	para(th.text, say)
	b.WriteString("\n")
	for _, o := range []struct{ key, text string }{
		{"(t) ", take},
		{"(w) ", watch},
		{"(l) ", "leave"},
	} {
		lines := strings.Split(ansi.Wrap(o.text, max(10, w-4), " "), "\n")
		for i, line := range lines {
			lead := "    "
			if i == 0 {
				lead = th.heading.Render(o.key)
			}
			b.WriteString(lead + th.text.Render(line) + "\n")
		}
	}
	if s.note != "" {
		b.WriteString("\n")
		para(th.dim, s.note)
	}
	return m.center(b.String())
}

// cheatScreen is the admins' menu (bracket-lib's cheat menu, grown).
type cheatScreen struct {
	back   *playScreen
	create bool // choosing an item to create
}

func (s *cheatScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	if !m.admin() { // rights are checked when used: revoked while the menu was open
		s.back.note = "Unknown command."
		return s.back, nil
	}
	key := k.String()
	if key == "esc" {
		if s.create {
			s.create = false
			return s, nil
		}
		return s.back, nil
	}
	if s.create {
		kinds := game.ItemKinds()
		if r := []rune(key); len(r) == 1 && r[0] >= 'a' && int(r[0]-'a') < len(kinds) {
			kind := kinds[r[0]-'a']
			m.p.Lobby.Cheat("create " + string(kind))
			return s.back.apply(m, game.CheatCommand(game.CheatCreate, kind))
		}
		return s, nil
	}
	var c game.Cheat
	var what string
	switch key {
	case "t", "T":
		c, what = game.CheatTeleport, "teleport to exit"
	case "r", "R":
		c, what = game.CheatReveal, "reveal map"
	case "h", "H":
		c, what = game.CheatHeal, "heal to full"
	case "g", "G":
		c, what = game.CheatGod, "toggle god mode"
	case "c", "C":
		s.create = true
		return s, nil
	default:
		return s, nil
	}
	m.p.Lobby.Cheat(what)
	return s.back.apply(m, game.CheatCommand(c, ""))
}

func (s *cheatScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.title.Render("Cheating!") + "\n\n")
	if s.create {
		for i, k := range game.ItemKinds() {
			b.WriteString(th.heading.Render(fmt.Sprintf("(%c) ", 'a'+i)) + th.text.Render(string(k)) + "\n")
		}
	} else {
		for _, row := range [][2]string{{"t", "Teleport to exit"}, {"r", "Reveal map"}, {"h", "Heal to full"},
			{"g", "Toggle god mode"}, {"c", "Create item"}} {
			b.WriteString(th.heading.Render("("+row[0]+") ") + th.text.Render(row[1]) + "\n")
		}
	}
	b.WriteString("\n" + th.dim.Render("A game with cheats never enters the score table.") + "\n")
	b.WriteString(th.dim.Render("Esc to cancel"))
	return m.center(th.box.Render(b.String()))
}

// watchListScreen lets a player pick a live game to watch: every game
// but the hidden ones (LiveGame.Hidden), which it counts.
type watchListScreen struct {
	back   screen
	games  []LiveGame
	hidden int // games left out: today's daily
	sel    int
}

// newWatchList lists the lobby's games that can be watched. A session
// with no game in play is listed too, saying what it does (gameLine): on
// the title, watching someone, or reading how its game ended. Picking one
// whose game is over shows that end, said as such ("bob was killed by …",
// never as a game in play), and then the player's next game if they start
// one: what a player picking "bob  game over" expects, rather than a row
// they cannot pick or a list that hides who is around.
func newWatchList(m *Model, back screen) *watchListScreen {
	s := &watchListScreen{back: back}
	for _, g := range m.p.Lobby.Games() {
		if g.Hidden {
			s.hidden++
			continue
		}
		s.games = append(s.games, g)
	}
	return s
}

func (s *watchListScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	switch k.String() {
	case "esc", "q":
		return s.back, nil
	case "up", "k":
		s.sel = max(0, s.sel-1)
	case "down", "j":
		s.sel = min(len(s.games)-1, s.sel+1)
	case "r":
		s.refresh(m)
	case "enter":
		if len(s.games) > 0 {
			return startWatching(m, s.games[s.sel], s)
		}
	}
	return s, nil
}

// refresh reads the live games again, keeping the cursor on the game it
// was on while that game is listed.
func (s *watchListScreen) refresh(m *Model) {
	var was uint64
	if s.sel < len(s.games) {
		was = s.games[s.sel].ID
	}
	*s = *newWatchList(m, s.back)
	for i, g := range s.games {
		if g.ID == was {
			s.sel = i
		}
	}
}

func (s *watchListScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.title.Render("Playing now") + "\n\n")
	switch {
	case len(s.games) == 0 && s.hidden > 0:
		b.WriteString(th.dim.Render("No game can be watched now.") + "\n")
	case len(s.games) == 0:
		b.WriteString(th.dim.Render("No one else is playing.") + "\n")
	}
	b.WriteString(th.heading.Render("  "+gameHeader()) + "\n")
	for i, g := range s.games {
		line := gameLine(g, m.p.Now())
		if i == s.sel {
			b.WriteString(th.selected.Render("> "+line) + "\n")
		} else {
			b.WriteString(th.text.Render("  "+line) + "\n")
		}
	}
	if s.hidden > 0 {
		b.WriteString("\n" + th.dim.Render(ansi.Wrap(fmt.Sprintf("Not listed: %d. %s", s.hidden, HiddenList), max(20, min(m.w-4, 72)), " ")) + "\n")
	}
	b.WriteString("\n" + th.dim.Render("↑/↓ choose · Enter watch · r refresh · Esc back"))
	return m.center(b.String())
}

// gameHeader names the columns of gameLine.
func gameHeader() string {
	return fmt.Sprintf("%-16s %5s %6s %5s %8s  %s", "name", "depth", "turn", "idle", "watchers", "doing")
}

// gameLine is one live game in a list, under gameHeader: what the session
// does (Activity.Text, or HiddenNote for today's daily) comes last, as in
// `who`, so that a long "watching NAME" is cut at the edge rather than
// pushing the columns out of line (a breaker); depth and turn are "-"
// unless a game is in play.
func gameLine(g LiveGame, now time.Time) string {
	name, depth, turn, idle := g.Columns(now)
	doing, watchers := g.Activity.Text(), fmt.Sprint(g.Watchers)
	if g.Hidden { // today's daily: no watchers to count
		doing, watchers = HiddenNote, "-"
	}
	return fmt.Sprintf("%-16s %5s %6s %5s %8s  %s", name, depth, turn, idle, watchers, doing)
}

// Columns returns a live game's name (made inert; "(new player)" before one
// is chosen), depth and turn ("-" unless a game is in play: not on the
// title, nor once it is over, nor while watching another) and idle time
// ("12s", "4m", "2h") as text: the list on the title screen and `who` both
// print it, and say what a session does beside it (Activity.Text).
func (g LiveGame) Columns(now time.Time) (name, depth, turn, idle string) {
	name, depth, turn = Inert(g.Name), "-", "-"
	if name == "" {
		name = "(new player)"
	}
	if g.InPlay() && g.Depth > 0 {
		depth, turn = fmt.Sprint(g.Depth), fmt.Sprint(g.Turn)
	}
	return name, depth, turn, idleText(now.Sub(g.LastInput))
}

func idleText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

// watchScreen shows someone else's game, live and read-only, at this
// terminal's size.
type watchScreen struct {
	back   screen
	id     uint64 // the game's LiveGame.ID
	hidden bool   // it ended by becoming hidden (LiveGame.Hidden)
	name   string
	frames <-chan *frame.Frame
	stop   func()
	board  *playScreen // draws the watched game with its own camera
	g      *game.Game  // the newest frame's game, shared with every other watcher: read only
	blob   []byte      // the newest frame's save blob: a frame that differs is the game moving
	ended  bool
	// The game's chat (chat.go): nil when this watcher has none (the
	// game is on a node that relays none, or the page may only read).
	chat      ChatRoom
	lines     []ChatLine // its lines as last heard
	input     chatInput  // the line being typed (c or Enter opens it)
	said      string     // why the last line was refused; "" for none
	saidMuted bool       // whether the player had muted the watchers when said was set
	saidAt    time.Time  // when said was set (the model's clock)
	log       *chatLog   // the chat's lines read back (v), in place of the game; nil for the game
}

// watchChatRows is how many of a watched game's chat lines the watch
// screen shows under its messages (fewer on a short terminal).
const watchChatRows = 2

type frameMsg struct{ f *frame.Frame }
type watchEnded struct{}

func waitFrame(ch <-chan *frame.Frame) tea.Cmd {
	return func() tea.Msg {
		f, ok := <-ch
		if !ok {
			return watchEnded{}
		}
		return frameMsg{f}
	}
}

func startWatching(m *Model, g LiveGame, back screen) (screen, tea.Cmd) {
	frames, stop, ok := m.p.Lobby.Watch(g.ID)
	if !ok {
		return back, nil
	}
	name := g.Name
	if name == "" { // a player who has not chosen a name yet
		name = "a new player"
	}
	w := &watchScreen{back: back, id: g.ID, name: name, frames: frames, stop: stop, board: newPlay()}
	if m.game == nil { // listed as watching g's player until it stops (close)
		m.watching = &Activity{Doing: Watching, Watched: g.Name}
		m.publish()
	}
	cmds := []tea.Cmd{waitFrame(frames)}
	if room, ok := m.p.Lobby.Chat(g.ID); ok {
		w.chat, w.lines = room, room.Lines()
		cmds = append(cmds, waitChat(room))
	}
	return w, tea.Batch(cmds...)
}

// relist follows the watched player's name (the server's RelistMsg,
// every few seconds): after an admin's rename the screen and the lists
// (Activity.Watched) name the player as it is named now, never by a name
// another key may have claimed since.
func (w *watchScreen) relist(m *Model) {
	for _, g := range m.p.Lobby.Games() {
		if g.ID != w.id || g.Name == "" || g.Name == w.name {
			continue
		}
		w.name = g.Name
		if m.watching != nil {
			m.watching.Watched = g.Name
			m.publish()
		}
	}
}

// close stops watching and lets go of the game's chat; the session is
// no longer listed as watching (the screen it goes back to publishes).
func (w *watchScreen) close(m *Model) {
	w.stop()
	if w.chat != nil {
		w.chat.Close()
		w.chat = nil
	}
	m.watching = nil
}

func (w *watchScreen) async(m *Model, msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case frameMsg:
		w.settleSaid(m) // frames come often: an old refusal goes without a key
		if msg.f == nil {
			return w, waitFrame(w.frames)
		}
		if g, err := msg.f.Game(); err == nil { // decoded once, for every watcher
			w.g = g
		}
		// Watching a game that moves is not idle (a tester's spectator was
		// dropped by the idle timeout): a frame that differs from the last
		// counts as a key. A frame sent again unchanged (a new watcher, a
		// repaint) does not, so a watcher of a game left standing is idle
		// as before.
		if b := msg.f.Blob(); !bytes.Equal(b, w.blob) {
			if w.blob != nil {
				m.lastKey = m.p.Now()
			}
			w.blob = b
		}
		return w, waitFrame(w.frames)
	case watchEnded:
		w.ended = true
		if m.watching != nil { // nothing is watched now: not listed as watching
			m.watching = nil
			m.publish()
		}
		for _, g := range m.p.Lobby.Games() { // still playing: it became hidden
			if g.ID == w.id && g.Hidden {
				w.hidden = true
			}
		}
	}
	return w, nil
}

func (w *watchScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	if w.input.on {
		if text, send := w.input.key(k); send && w.chat != nil {
			w.said = ""
			if err := w.chat.Say(text); err != nil {
				w.said, w.saidMuted, w.saidAt = err.Error(), w.chat.WatchersMuted(), m.p.Now()
				w.input.refused(text, err)
			}
		}
		return w, nil
	}
	if w.log != nil { // reading the chat back: its keys scroll, v, q or Esc go back to the game
		switch k.String() {
		case "v", "q", "esc", "enter", "tab":
			w.log = nil
		default:
			w.log.scrollLines(m, k.String(), w.lines)
		}
		return w, nil
	}
	switch k.String() {
	case "v":
		if w.g != nil && (w.chat != nil || len(w.lines) > 0) {
			w.log = newChatLog()
		}
		return w, nil
	case "c", "enter":
		if w.chat != nil && !w.ended {
			w.input.on, w.said = true, ""
		}
		return w, nil
	case "q", "esc":
		w.close(m)
		if w.back == nil { // a watcher only (NewWatcher): nothing to go back to
			return w, tea.Quit
		}
		if c, ok := w.back.(*conflictScreen); ok {
			c.note = ""
			if w.ended { // the other session is gone: nothing left to take over
				c.note = otherEnded
			}
			return c, nil // still this key's other session: no game of one's own here
		}
		return newTitle(m, ""), nil
	}
	return w, nil
}

func (w *watchScreen) view(m *Model) string {
	if w.g == nil {
		msg := "Waiting for the game of " + Inert(w.name) + "…"
		switch {
		case w.hidden:
			msg = hiddenNow(w.name)
		case w.ended:
			msg = Inert(w.name) + " has left."
		}
		if w.back == nil { // a watcher only (NewWatcher)
			return m.center(m.th.dim.Render(msg))
		}
		if w.ended {
			msg += " Press q."
		}
		return m.center(m.th.dim.Render(msg) + "\n\n" + m.th.dim.Render("q to stop watching"))
	}
	if w.log != nil {
		why := ""
		if len(w.lines) == 0 {
			why = "No one has said anything yet."
		}
		return w.log.view(m, w.lines, why, "v/Esc back to the game · ↑/↓ scroll · PgUp/PgDn page · Home/End")
	}
	note, back := "Watching "+Inert(w.name), " · q to stop"
	switch {
	case w.g.Over() && w.g.Won():
		note, back = Inert(w.name)+" escaped the grotto!", " · q to go back"
	case w.g.Over():
		note, back = Inert(w.name)+" was "+game.ThirdPerson(w.g.Cause()), " · q to go back"
	case w.hidden:
		note, back = hiddenNow(w.name), " · q to go back"
	case w.ended:
		note, back = Inert(w.name)+" has left the game", " · q to go back"
	}
	if w.back == nil { // a watcher only (NewWatcher): there is no going back
		back = ""
	}
	switch {
	case w.chat == nil || w.ended:
	case w.chat.WatchersMuted(): // said before a line is typed, not after; muted too while the player's chat is off
		back += " · chat closed by the player" // muted, or not read: short enough for 80 columns beside the rest
	default:
		back += " · c chat"
	}
	if w.chat != nil || len(w.lines) > 0 {
		back += " · v chat log"
	}
	return w.board.renderChat(m, w.g, nil, note+back, w.chatRows(m))
}

// settleSaid forgets why the watcher's last line was refused once that may
// no longer hold: the player's mute changed since (lifted, or set: the
// refusal is old news either way), or chatSaidFor went by. An admin's
// `unmute` tells no screen, and a community tester read "an admin has
// muted this key" ten minutes after it was lifted; a line refused again
// says so again. Opening the input forgets it too.
func (w *watchScreen) settleSaid(m *Model) {
	if w.said == "" {
		return
	}
	if w.chat == nil || w.chat.WatchersMuted() != w.saidMuted || m.p.Now().Sub(w.saidAt) >= chatSaidFor {
		w.said = ""
	}
}

// chatRows is the watch screen's chat: its newest lines, then why the last
// line was refused, then the input while one is typed.
func (w *watchScreen) chatRows(m *Model) []string {
	if w.chat == nil && len(w.lines) == 0 {
		return nil
	}
	_, msgRows := m.layout()
	n := min(watchChatRows, msgRows-1)
	var rows []string
	for _, l := range w.lines[max(0, len(w.lines)-n):] {
		rows = append(rows, m.chatRow(l))
	}
	if w.said != "" {
		rows = append(rows, m.th.spans.impossible.render(truncate(w.said, m.w)))
	}
	if w.input.on {
		rows = append(rows, w.input.row(m))
	}
	return rows[max(0, len(rows)-n):]
}

// hiddenNow says that the watched player began today's daily challenge.
func hiddenNow(name string) string {
	return Inert(name) + " is playing today's daily challenge, which cannot be watched until 00:00 UTC."
}

// settle moves the watch camera to keep the watched player in view.
func (w *watchScreen) settle(m *Model) {
	if w.g != nil {
		w.board.follow(m, w.g, w.g.Player().Pos)
	}
}
