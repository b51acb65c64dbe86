// Package tui is grotto's Bubble Tea model: the screens of one player's
// session as a state machine (title, play, message log, help, game over), the
// key bindings, the camera and the drawing. It changes the game only by
// sending commands to a Play (the server wires server/session), which keeps
// every turn durable; the UI itself persists nothing.
package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

// Terminal size in cells: below the minimum the screen asks to be
// enlarged; beyond the maximum the program is told the maximum and draws
// in the top-left part only, telling the terminal nothing beyond it.
// The maximum is what the game draws: the whole level (game.MapWidth x
// game.MapHeight, 80x43) with the status line and five lines of messages
// below it (49 rows), and room beside it for the status line's long form
// (the level's name shows from 100 columns). Every way a size arrives (an
// SSH pty-req or window-change, a web page's size) is clamped to it, since
// Bubble Tea's renderer keeps two screen buffers of about 120 bytes a
// cell: 35 MB for a client claiming 500x300, 1.5 MB at the maximum
// (docs/performance.md).
const (
	MinWidth  = 40
	MinHeight = 12
	MaxWidth  = 120
	MaxHeight = 50
)

// Player says who is at the keyboard and what the session offers them.
type Player struct {
	// Name is the name to suggest on the name screen of a first login.
	Name string
	// Play is the player's games: the one in progress, kept durable.
	Play Play
	// Board is the high-score table; nil shows it as unavailable.
	Board Board
	// Now returns the current time (the watch list's idle times); nil
	// means time.Now.
	Now func() time.Time
	// Admin reports whether the key may open the cheat menu (\) right now.
	// It is asked each time a cheat is opened or used, so a key removed from
	// the admin file (and SIGHUP) loses the menu at once; nil means never.
	Admin func() bool
	// Lobby connects the session to the other players; nil for none.
	Lobby Lobby
	// NeedName starts on the name screen, suggesting Name, for a first login.
	NeedName bool
	// Conflict starts on the choice screen: this key already plays elsewhere.
	Conflict bool
	// ConflictNode, with Conflict, names the node the key's game is open
	// on when it is another node of this host ("" for this one).
	ConflictNode string
	// Stranded, with Conflict, is the note of a key whose game is held by
	// a node that does not answer (it stopped): the choice screen starts
	// already taking the game over, showing the note, since there is no
	// session to watch or to ask. "" for none.
	Stranded string
	// IdleTimeout ends the session, saving the game, after this long without
	// a key; a watcher is not idle while the game watched moves. 0 means
	// never.
	IdleTimeout time.Duration
	// Data is the game data the map draws items with (items.json: glyph
	// and colour), the tables the games are made from; nil means
	// content.Default().
	Data *content.Tables
	// Settings are the player's options as their profile keeps them
	// (symbols, colour); unknown values read as the defaults.
	Settings Settings
	// Replays opens the finished games of the score table's rows for
	// replay (a row's GameID); nil offers none.
	Replays Replays
	// Daily starts today's daily challenge; nil offers none.
	Daily Daily
	// SaveSettings keeps the player's new settings in their profile; an
	// error, said on the settings screen, leaves the choice in force for
	// this session. nil means settings last only for the session.
	SaveSettings func(Settings) error
	// StallNotice is how long a turn's store call may go without an
	// answer before the player is shown that the turn waits for storage
	// (the call goes on); 0 means DefaultStallNotice.
	StallNotice time.Duration
}

// Play is one player's games as the UI needs them; server/session's
// Session implements it. Every method returns quickly enough to call on the
// event loop (a store write).
type Play interface {
	// Open reads the saved game (nil when there is none) for the title,
	// with news the player must read (a game that ended was recorded, a
	// damaged save was set aside); err, in the player's words, means a save
	// exists but cannot be read right now.
	Open() (saved *game.Game, news string, err error)
	// Continue makes the game Open found the one in progress.
	Continue() error
	// SavedDaily is the daily Open found kept beside the game of the
	// player's own (a key keeps one of each), nil for none.
	SavedDaily() *game.Game
	// ContinueDaily makes SavedDaily the game in progress.
	ContinueDaily() error
	// Start begins and saves a new game; the game starts even when the
	// save fails, and err says so in the player's words.
	Start() error
	// Do applies a command and returns once the turn is durable. An
	// impossible command returns *game.Impossible and costs nothing; any
	// other error means the turn happened but is not durable, or that the
	// end of the game could not be recorded, in the player's words.
	Do(c game.Command) (game.Result, error)
	// Save writes the game in progress; err, in the player's words, says
	// it is not saved.
	Save() error
	// Leave lets go of a game that has ended.
	Leave()
	// Game is the game in progress or just ended, to draw; nil for none.
	Game() *game.Game
	// InProgress reports whether there is a game that is not over.
	InProgress() bool
	// Behind reports whether turns the player saw are not saved yet.
	Behind() bool
	// Waiting reports whether the last turn waits for storage: Do
	// applied it but the store is out of reach, so it is not durable and
	// must not be drawn. Meanwhile Do applies nothing.
	Waiting() bool
	// Retry tries again to make the waiting turn durable; when it still
	// waits, Waiting stays true. Once the wait ends, err (in the player's
	// words) is what Do would have returned for the turn.
	Retry() error
	// Rank is the 1-based rank of the game that just ended; 0 for none.
	Rank() int
}

// Board is the high-score table as the title screen shows it.
type Board interface {
	// TopScores returns up to n scores, best first.
	TopScores(n int) ([]ScoreRow, error)
	// Changes is a count that moves whenever the table may have changed
	// (a game ended and was recorded, a score was removed): the title
	// reads the table again on RelistMsg only when it moved, so a busy
	// server does not read it for every session on the title every few
	// seconds. It must return at once (no store call).
	Changes() uint64
}

// ScoreRow is one row of the high-score table.
type ScoreRow struct {
	Name   string // the name the player had claimed
	Points int
	Cause  string // how the game ended, e.g. "killed by a kobold on level 3"
	GameID uint64 // the finished game kept whole, for its replay (Replays); 0 for none
}

// Daily is the daily challenge as the title offers it; the
// server implements it.
type Daily interface {
	// StartDaily takes this key's one attempt at today's daily and makes
	// it the game in progress of Play, saved. err, in the player's words,
	// says why not: today's is done (and when the next one starts), or the
	// store is out of reach; the game then is not started.
	StartDaily() error
}

// DailyBoard is a Daily that can count a day's board, for the daily's
// game-over screen ("3rd of 14"); without it the screen gives the place
// alone.
type DailyBoard interface {
	// DailyEntries returns how many scores the board of the daily of date
	// ("2006-01-02") holds.
	DailyEntries(date string) (int, error)
}

// admin reports whether the player holds admin rights at this moment.
func (m *Model) admin() bool { return m.p.Admin != nil && m.p.Admin() }

// Exit says why a session's program ended, so the server can tell the
// player once the terminal is back to normal.
type Exit uint8

// The ways a session ends.
const (
	ExitDisconnect Exit = iota // the client went away, or the program was killed
	ExitQuit                   // the player quit from the title screen
	ExitSaved                  // the player saved and left (S or Ctrl+C)
	ExitShutdown               // the server is shutting down; the game was saved
	ExitTakenOver              // the same key took the game over from another session
	ExitIdle                   // no key for Player.IdleTimeout; the game was saved
	ExitKicked                 // an admin ended the session (KickedMsg); the game was saved
	ExitBanned                 // the key was banned (BannedMsg); the game was saved
	ExitInputEnded             // the terminal will send no more keys (InputEndedMsg); the game was saved
)

// DefaultStallNotice is how long a turn's store call may go without an
// answer before the player is shown that the turn waits for storage
// (Player.StallNotice): long enough that a normal commit (milliseconds,
// or a group commit under load) never flashes it, short enough that a
// stalled database (a locked table, a lost connection that PostgreSQL's
// store may wait 15 s on) is said within about a second.
const DefaultStallNotice = time.Second

// stallNotice returns Player.StallNotice, or its default.
func (m *Model) stallNotice() time.Duration {
	if m.p.StallNotice > 0 {
		return m.p.StallNotice
	}
	return DefaultStallNotice
}

// ShutdownMsg tells a session that the server is stopping: the model saves the
// game and quits.
type ShutdownMsg struct{}

// InputEndedMsg tells a session that its terminal will send no more keys
// (the client closed its input, as ssh -tt host < file does at the end of
// the file), after every key it sent: the model saves the game and quits,
// rather than wait out Player.IdleTimeout for a key that cannot come.
type InputEndedMsg struct{}

// screen is one state of the UI state machine: it handles keys and draws
// itself at the model's size, returning the next screen.
type screen interface {
	update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd)
	view(m *Model) string
}

// asyncHandler is a screen waiting for work done off the event loop (taking
// over a session, a watched game's frames).
type asyncHandler interface {
	async(m *Model, msg tea.Msg) (screen, tea.Cmd)
}

// settler is a screen with state that follows the model's size or game: a
// camera, a scroll position. Update settles the screen after every message,
// so that views only draw.
type settler interface {
	settle(m *Model)
}

// mouseHandler is a screen that takes the mouse (only targeting does, so that
// elsewhere the terminal's own text selection keeps working).
type mouseHandler interface {
	mouse(m *Model, msg tea.MouseMsg) (screen, tea.Cmd)
}

// Model is one session's UI. It is used by one goroutine at a time (the Bubble
// Tea program's, then the session's after the program ends).
type Model struct {
	p    Player
	th   *theme
	keys keyMaps
	w, h int
	scr  screen
	game *game.Game // the game drawn: Play's, or a watched one; nil on the title before one starts
	exit Exit
	// lastKey is when the last key came, or the game watched last moved
	// (watchScreen): the idle check counts from it.
	lastKey  time.Time
	watchers int  // how many watch this game
	framed   bool // the last publish held a frame, which the lobby hands each new watcher
	// watching is what the session published while it watches another
	// game (startWatching), until it stops (watchScreen.close); nil when
	// it watches none.
	watching   *Activity
	set        Settings
	detected   colorprofile.Profile   // the terminal's colour profile, as Bubble Tea reports it
	forced     []colorprofile.Profile // profiles this model sent to the renderer, not yet come back
	banner     string                 // a host's broadcast shown until the next key (banner.go); "" for none
	start      tea.Cmd                // run by Init: a watcher's first wait for a frame (NewWatcher)
	reread     chan struct{}          // closed to end the tick under way before the next read of a save (reread.go); nil for none
	chat       ChatRoom               // the chat of the session's own game (chat.go); nil for none
	chatIn     chatInput              // the line the player is typing in it (" opens it)
	recording  bool                   // drawn for a recording (ReplayFrames): no key hints
	chatSaid   string                 // why the player's last line was refused; "" for none
	chatSaidAt time.Time              // when chatSaid was set (settleChatSaid)
	chatLines  []ChatLine             // its lines as last heard, oldest first
	// muteChoice is the player's own choice of muting this game's
	// watchers (settings, Watchers): the room's mute follows it while the
	// chat is on, and holds while it is off (syncWatchersMute).
	muteChoice bool
}

// New returns the model for one session, starting on the title screen.
func New(p Player) *Model {
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Lobby == nil {
		p.Lobby = nopLobby{}
	}
	if p.Data == nil {
		p.Data = content.Default()
	}
	m := &Model{p: p, keys: boundKeys, w: 80, h: 24, set: p.Settings.normal(), detected: colorprofile.ANSI256}
	m.th = newTheme(m.profile())
	switch {
	case p.Conflict && p.Stranded != "":
		c := newConflict(p.Lobby)
		c.waiting, c.stranded, c.note = true, true, p.Stranded
		m.scr = c
	case p.Conflict:
		m.scr = newConflict(p.Lobby)
	case p.NeedName:
		m.scr = newNameScreen(p.Name)
	default:
		m.scr = newTitle(m, "")
	}
	return m
}

// Init implements tea.Model. It asks the terminal whether it does true colour
// (the RGB and Tc capabilities), since SSH clients rarely forward COLORTERM.
func (m *Model) Init() tea.Cmd {
	m.lastKey = m.p.Now()
	// The terminal's true colour is asked by server/input (its queries):
	// the program reads no input of its own, so Bubble Tea would skip
	// tea.RequestCapability here.
	cmds := []tea.Cmd{m.start, m.rereadIfDue(), m.openOwnChat()}
	if c, ok := m.scr.(*conflictScreen); ok && c.waiting { // stranded: take over at once
		cmds = append(cmds, m.takeOver())
	}
	return tea.Batch(cmds...)
}

// IdleCheckMsg asks the session whether it has been idle for
// Player.IdleTimeout, with no key and, watching, no move of the game
// watched; if so it saves and quits. The server sends it
// periodically from a goroutine that ends with the session (a tea.Tick
// would outlive the program by up to its period).
type IdleCheckMsg struct{}

// RelistMsg tells a session that the live games may have changed: a
// screen showing them (the title's "Playing now", the watch list) reads
// them again, and the title its scores when Board.Changes moved. The server sends it every few seconds to sessions with no
// game open (lobby.RelistEvery).
type RelistMsg struct{}

// Update implements tea.Model. After every message it settles the screen it
// ends on (camera, scroll positions), so View only draws, and starts the
// next read of a save the screen waits to read again (reread.go).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.settle()
	_, cmd := m.update(msg)
	if m.exit == ExitDisconnect { // not leaving
		if r := m.rereadIfDue(); r != nil {
			cmd = tea.Batch(cmd, r)
		}
	}
	return m, cmd
}

// update is Update without what follows every message.
func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = min(msg.Width, MaxWidth), min(msg.Height, MaxHeight)
	case tea.ColorProfileMsg:
		return m, m.profileReported(msg.Profile)
	case IdleCheckMsg:
		if m.p.IdleTimeout > 0 && m.p.Now().Sub(m.lastKey) >= m.p.IdleTimeout {
			m.saveBeforeQuit() // the server saves again once the program has ended, and reports failure
			m.exit = ExitIdle
			return m, tea.Quit
		}
		if t, ok := m.scr.(*titleScreen); ok { // the periodic check also refreshes the list of live games
			t.refreshLive(m)
		}
	case RelistMsg:
		switch s := m.scr.(type) {
		case *titleScreen:
			s.refreshLive(m)
		case *watchListScreen:
			s.refresh(m)
		case *watchScreen:
			s.relist(m)
		case *conflictScreen:
			s.relist(m)
		}
	case rereadTick:
		var cmd tea.Cmd
		m.scr, cmd = m.rereadDue(msg)
		return m, cmd
	case ShutdownMsg:
		return m.leave(ExitShutdown)
	case InputEndedMsg:
		return m.leave(ExitInputEnded)
	case TakenOverMsg:
		return m.leave(ExitTakenOver)
	case KickedMsg:
		return m.leave(ExitKicked)
	case BannedMsg:
		return m.leave(ExitBanned)
	case BannerMsg:
		m.banner = msg.Text
	case WatchersMsg:
		m.watchers = m.p.Lobby.Watchers()
		if !m.framed { // else a new watcher starts from the frame the lobby holds
			m.publish()
		}
	case chatMsg:
		return m, m.chatHeard(msg)
	case takeOverDone, TakeOverNoteMsg, frameMsg, watchEnded, tripStep, storageRetry, turnAnswered, replayTick:
		var open tea.Cmd
		if d, ok := msg.(takeOverDone); ok && d.err == nil { // now the key's player: its game's chat is this session's
			open = m.openOwnChat()
		}
		if h, ok := m.scr.(asyncHandler); ok { // else it is late news for a screen left behind
			var cmd tea.Cmd
			_, waited := m.scr.(*waitScreen)
			m.scr, cmd = h.async(m, msg)
			if _, still := m.scr.(*waitScreen); waited && !still {
				// The turn that waited is saved and drawn now: list it.
				// (show published while the wait screen was still up,
				// which publish skips.)
				m.publish()
			}
			return m, tea.Batch(cmd, open)
		}
		return m, open
	case tea.MouseMsg:
		if h, ok := m.scr.(mouseHandler); ok && !m.tooSmallNow() {
			var cmd tea.Cmd
			m.scr, cmd = h.mouse(m, msg)
			return m, cmd
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// leave saves the game and quits the program, ending with exit: the
// server shuts down, the game was taken over, an admin kicked or banned
// the key. The server saves again once the program has ended, and reports
// failure.
func (m *Model) leave(exit Exit) (tea.Model, tea.Cmd) {
	m.saveBeforeQuit()
	m.exit = exit
	return m, tea.Quit
}

// key hands a key press to the screen, unless it is Ctrl+C (save and
// leave), it dismisses a banner (and is not played), or the screen is
// hidden for being too small (a key would act unseen).
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.lastKey = m.p.Now()
	if msg.String() == "ctrl+c" {
		return m.saveAndLeave()
	}
	if m.banner != "" {
		m.banner = ""
		return nil
	}
	if m.tooSmallNow() {
		return nil
	}
	var cmd tea.Cmd
	m.scr, cmd = m.scr.update(m, msg)
	return cmd
}

// settle brings the screen's camera and scroll positions up to date with the
// game and the size.
func (m *Model) settle() {
	if s, ok := m.scr.(settler); ok {
		s.settle(m)
	}
}

// View implements tea.Model. It changes nothing: drawing twice draws the same.
func (m *Model) View() tea.View {
	var s string
	if m.tooSmallNow() {
		s = m.tooSmall()
	} else {
		s = m.scr.view(m)
	}
	v := tea.NewView(m.finish(m.withBanner(s)))
	if c, ok := m.scr.(cursorHolder); ok && !m.tooSmallNow() {
		v.Cursor = c.terminalCursor(m)
	}
	v.AltScreen = true
	if _, ok := m.scr.(mouseHandler); ok {
		v.MouseMode = tea.MouseModeAllMotion
	}
	v.WindowTitle = "grotto"
	if m.tooSmallNow() { // a terminal too small to show even that says it in its title bar
		v.WindowTitle = m.tooSmallLine()
	}
	return v
}

// tooSmallNow reports whether the terminal is below MinWidth x MinHeight:
// then only the request to enlarge it is drawn and keys (but Ctrl+C) are
// ignored.
func (m *Model) tooSmallNow() bool { return m.w < MinWidth || m.h < MinHeight }

// tooSmallLine is the one line that asks for a larger terminal. It holds
// no ';', which a terminal's title (OSC 2) would cut it at.
func (m *Model) tooSmallLine() string {
	return fmt.Sprintf("grotto needs a terminal of at least %dx%d (this one is %dx%d): please enlarge it.",
		MinWidth, MinHeight, m.w, m.h)
}

// tooSmall draws the request to enlarge the terminal: tooSmallLine, or
// a shorter one when that does not fit in m.w x m.h (down to the size
// alone, "40x12", cut to the width; the window title says it whole).
func (m *Model) tooSmall() string {
	st := lipgloss.NewStyle().Width(max(1, m.w))
	msgs := []string{m.tooSmallLine(), fmt.Sprintf("grotto needs %dx%d (this is %dx%d).", MinWidth, MinHeight, m.w, m.h),
		fmt.Sprintf("Enlarge to %dx%d.", MinWidth, MinHeight)}
	for _, msg := range msgs {
		if s := st.Render(msg); lipgloss.Height(s) <= max(1, m.h) {
			return s
		}
	}
	return fmt.Sprintf("%dx%d", MinWidth, MinHeight)
}

// String names the exit for logs.
func (e Exit) String() string {
	switch e {
	case ExitQuit:
		return "quit"
	case ExitSaved:
		return "saved"
	case ExitShutdown:
		return "shutdown"
	case ExitTakenOver:
		return "taken over"
	case ExitIdle:
		return "idle"
	case ExitKicked:
		return "kicked"
	case ExitBanned:
		return "banned"
	case ExitInputEnded:
		return "input ended"
	}
	return "disconnect"
}

// saveAndLeave saves the game in progress, if any, and quits; if the save
// fails the player stays, told why, with nothing lost.
func (m *Model) saveAndLeave() tea.Cmd {
	if w, ok := m.scr.(*waitScreen); ok {
		return w.leave(m)
	}
	if err := m.p.Play.Save(); err != nil {
		if p, ok := m.scr.(*playScreen); ok {
			p.note = err.Error() + " Your game is still here; press S to try again."
		}
		return nil
	}
	m.exit = ExitQuit
	if m.InProgress() {
		m.exit = ExitSaved
	}
	return tea.Quit
}

// Close lets go of what the session holds in the lobby (a game it was
// watching), and waits for a turn's store call still under way (bounded
// by the store's own timeout), so that the session is the caller's alone
// once it returns. The server calls it once the program has ended,
// however it ended, before its own save.
func (m *Model) Close() {
	m.stopReread()
	m.closeChat()
	switch w := m.scr.(type) {
	case *watchScreen:
		w.close(m)
	case *waitScreen:
		w.stopRetries()
		if w.call != nil {
			<-w.call.done
		}
	}
}

// saveBeforeQuit saves the game in progress as the program is made to end
// (shutdown, take-over, idle, kick, ban), unless a turn's store call is
// still under way: the session is then the call's, and the server's save
// once the program has ended (after Close waited for the call) is the one.
func (m *Model) saveBeforeQuit() {
	if w, ok := m.scr.(*waitScreen); ok && w.call != nil {
		return
	}
	m.p.Play.Save()
}

// InProgress reports whether the session holds a game that is not over.
func (m *Model) InProgress() bool { return m.p.Play.InProgress() }

// Exit reports why the program ended; valid once it has.
func (m *Model) Exit() Exit { return m.exit }

// fit cuts or pads s (plain text, no escapes) to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	r := []rune(s)
	if len(r) > w {
		return string(r[:w])
	}
	return s + strings.Repeat(" ", w-len(r))
}

// center places block in the middle of the model's screen.
func (m *Model) center(block string) string {
	block = lipgloss.NewStyle().Align(lipgloss.Left).Render(block) // one width for every line
	return lipgloss.Place(m.w, m.h, lipgloss.Center, lipgloss.Center, block)
}
