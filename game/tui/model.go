// Package tui is grotto's Bubble Tea model: the screens of one player's
// session as a state machine (title, play, message log, help, game over), the
// key bindings, the camera and the drawing. It changes the game only by
// sending commands to the core, and persists it through a store.Store.
package tui

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store"
)

// Terminal size in cells: below the minimum the screen asks to be
// enlarged; beyond the maximum only the top-left part is drawn, so a client
// claiming a huge window cannot make the server build huge frames.
const (
	MinWidth  = 40
	MinHeight = 12
	MaxWidth  = 500
	MaxHeight = 300
)

// Player says who is at the keyboard and where their games are kept.
type Player struct {
	Fingerprint string      // the SSH key's SHA256 fingerprint: the identity
	Name        string      // shown on the score table
	Store       store.Store // saves and scores
	// NewSeed returns the seed of each new game; nil means a random one.
	NewSeed func() uint64
	// Now returns the time stamped on scores; nil means time.Now.
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
	// IdleTimeout ends the session, saving the game, after this long without
	// a key; 0 means never.
	IdleTimeout time.Duration
	// SaveTrouble, if set, hears when writes of the game start failing (err
	// is the first failure) and when a save succeeds again (err is nil), so
	// the host's log shows a full disk while players are told on screen.
	SaveTrouble func(err error)
	// NoJournal turns off the per-turn journal: turns are then saved only on
	// a level change, on leaving and every SnapshotEvery turns, so a crash
	// can lose up to that many. For measuring what durability costs.
	NoJournal bool
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
)

// ShutdownMsg tells a session that the server is stopping: the model saves the
// game and quits.
type ShutdownMsg struct{}

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

// mouseHandler is a screen that takes the mouse (only targeting does, so that
// elsewhere the terminal's own text selection keeps working).
type mouseHandler interface {
	mouse(m *Model, msg tea.MouseMsg) (screen, tea.Cmd)
}

// Model is one session's UI. It is used by one goroutine at a time (the Bubble
// Tea program's, then the session's after the program ends).
type Model struct {
	p     Player
	th    *theme
	w, h  int
	scr   screen
	game  *game.Game // the game in progress, nil on the title screen before one starts
	exit  Exit
	saved bool // the game on disk (save + journal) is the game in memory
	// behind is set when a write of the game failed: the store then lacks
	// turns the player saw, so a journal entry would land on the wrong turn
	// (or on no save, or on another game's save). Until a full save
	// succeeds, every turn tries one instead of a journal entry.
	behind bool
	// unrecorded is set when the game ended but recording its end failed:
	// the game is saved in its final state (never the turn before, which
	// Continue could replay), and the next title records it.
	unrecorded bool
	lastKey    time.Time
	journal    uint64 // journal entries since the save: the next entry's number
	watchers   int    // how many watch this game
}

// SnapshotEvery is how many journaled turns make a new save (and an empty
// journal), so that a resume never replays more than this.
const SnapshotEvery = 100

// New returns the model for one session, starting on the title screen.
func New(p Player) *Model {
	if p.NewSeed == nil {
		p.NewSeed = rand.Uint64
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Lobby == nil {
		p.Lobby = nopLobby{}
	}
	m := &Model{p: p, th: newTheme(colorprofile.ANSI256), w: 80, h: 24}
	switch {
	case p.Conflict:
		m.scr = &conflictScreen{}
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
	return tea.Batch(tea.RequestCapability("RGB"), tea.RequestCapability("Tc"))
}

// IdleCheckMsg asks the session whether it has been idle for
// Player.IdleTimeout; if so it saves and quits. The server sends it
// periodically from a goroutine that ends with the session (a tea.Tick
// would outlive the program by up to its period).
type IdleCheckMsg struct{}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = min(msg.Width, MaxWidth), min(msg.Height, MaxHeight)
	case tea.ColorProfileMsg:
		m.th = newTheme(msg.Profile)
	case IdleCheckMsg:
		if m.p.IdleTimeout > 0 && m.p.Now().Sub(m.lastKey) >= m.p.IdleTimeout {
			m.Persist()
			m.exit = ExitIdle
			return m, tea.Quit
		}
	case ShutdownMsg:
		m.Persist()
		m.exit = ExitShutdown
		return m, tea.Quit
	case TakenOverMsg:
		m.Persist()
		m.exit = ExitTakenOver
		return m, tea.Quit
	case WatchersMsg:
		m.watchers = m.p.Lobby.Watchers()
		m.publish()
	case takeOverDone, frameMsg, watchEnded:
		if h, ok := m.scr.(asyncHandler); ok { // else it is late news for a screen left behind
			var cmd tea.Cmd
			m.scr, cmd = h.async(m, msg)
			return m, cmd
		}
	case tea.MouseMsg:
		if h, ok := m.scr.(mouseHandler); ok {
			var cmd tea.Cmd
			m.scr, cmd = h.mouse(m, msg)
			return m, cmd
		}
	case tea.KeyPressMsg:
		m.lastKey = m.p.Now()
		if msg.String() == "ctrl+c" {
			return m, m.saveAndLeave()
		}
		var cmd tea.Cmd
		m.scr, cmd = m.scr.update(m, msg)
		return m, cmd
	}
	return m, nil
}

// View implements tea.Model.
func (m *Model) View() tea.View {
	var s string
	if m.w < MinWidth || m.h < MinHeight {
		s = m.tooSmall()
	} else {
		s = m.scr.view(m)
	}
	v := tea.NewView(s)
	v.AltScreen = true
	if _, ok := m.scr.(mouseHandler); ok {
		v.MouseMode = tea.MouseModeAllMotion
	}
	v.WindowTitle = "grotto"
	return v
}

func (m *Model) tooSmall() string {
	msg := fmt.Sprintf("grotto needs a terminal of at least %dx%d; this one is %dx%d. Please enlarge it.",
		MinWidth, MinHeight, m.w, m.h)
	return lipgloss.NewStyle().Width(max(1, m.w)).Render(msg)
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
	}
	return "disconnect"
}

// saveAndLeave saves the game in progress, if any, and quits; if the save
// fails the player stays, told why, with nothing lost.
func (m *Model) saveAndLeave() tea.Cmd {
	if err := m.Persist(); err != nil {
		if p, ok := m.scr.(*playScreen); ok {
			p.note = "Could not save (" + err.Error() + "); your game is still here. Try again."
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
// watching). The server calls it once the program has ended, however it
// ended.
func (m *Model) Close() {
	if w, ok := m.scr.(*watchScreen); ok {
		w.stop()
	}
}

// InProgress reports whether the session holds a game that is not over.
func (m *Model) InProgress() bool { return m.game != nil && !m.game.Over() }

// Exit reports why the program ended; valid once it has.
func (m *Model) Exit() Exit { return m.exit }

// Persist writes the game in progress to the store as a save (a snapshot,
// which also empties the journal), unless the save is already up to date or
// the game is over. It is called on S, on a level change, on shutdown, every
// SnapshotEvery turns, after any failed write and, by the server, after the
// program ends. When it fails the game stays behind the store's copy until a
// later Persist succeeds; the error says the game is not saved.
func (m *Model) Persist() error {
	if m.game == nil || (m.game.Over() && !m.unrecorded) || (m.saved && m.journal == 0 && !m.behind) {
		return nil
	}
	blob, err := m.game.Encode()
	if err == nil {
		err = m.p.Store.PutSave(m.p.Fingerprint, blob)
	}
	if err != nil {
		if !m.behind && m.p.SaveTrouble != nil {
			m.p.SaveTrouble(err)
		}
		m.saved, m.behind = false, true
		return fmt.Errorf("save game: %w", err)
	}
	if m.behind && m.p.SaveTrouble != nil {
		m.p.SaveTrouble(nil)
	}
	m.saved, m.behind, m.journal = true, false, 0
	return nil
}

// record makes a command that just happened durable before its result is
// drawn: one journal entry, group-committed with other players'. If the
// journal cannot be written, or an earlier write failed, it makes a full
// save instead, which holds every turn the journal missed.
func (m *Model) record(c game.Command) error {
	if m.p.NoJournal {
		if m.journal++; m.journal < SnapshotEvery && !m.behind {
			return nil
		}
		return m.Persist()
	}
	if !m.behind {
		err := m.p.Store.AppendJournal(m.p.Fingerprint, m.journal, game.EncodeCommand(c))
		if err == nil {
			m.journal++
			m.saved = true
			if m.journal < SnapshotEvery {
				return nil
			}
		}
	}
	m.saved = false
	return m.Persist()
}

// notSaved is what the player reads on every turn that could not be made
// durable: the turn is kept in memory and saving is retried each turn, so
// only the turns shown with this note can be lost, and only to a crash. It
// names the cause in a player's words, not the host's file paths.
func notSaved(err error) string {
	why := "the server could not write its database"
	switch {
	case errors.Is(err, store.ErrFileGone):
		why = "the server's database file is gone"
	case errors.Is(err, store.ErrNoRoom):
		why = "the server's disk is full"
	}
	return "Not saved: " + why + ". A crash now would lose this turn; saving is retried every turn."
}

// loadSave returns the player's saved game, its journal replayed: (nil,
// nil) when there is none, an error when there is one that cannot be read.
func (m *Model) loadSave() (*game.Game, error) {
	blob, err := m.p.Store.Save(m.p.Fingerprint)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	g, err := game.Decode(blob, gameData())
	if err != nil {
		return nil, err
	}
	entries, err := m.p.Store.Journal(m.p.Fingerprint)
	if err != nil {
		return nil, err
	}
	cmds := make([]game.Command, 0, len(entries))
	for _, e := range entries {
		c, err := game.DecodeCommand(e)
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, c)
	}
	if err := g.Replay(cmds); err != nil {
		return nil, err
	}
	m.journal = uint64(len(entries))
	return g, nil
}

// corrupt reports whether a load error means the stored game is damaged
// (rather than the database being briefly unavailable).
func corrupt(err error) bool {
	return errors.Is(err, game.ErrCorruptSave) || errors.Is(err, game.ErrSaveVersion) || errors.Is(err, store.ErrCorrupt)
}

// finish ends the game for good: it records the score and deletes the save
// (permadeath), returning the rank. A game with cheats only loses its save:
// rank 0, never on the table.
func (m *Model) finish() (int, error) {
	g := m.game
	if g.Cheated() {
		return 0, m.p.Store.DeleteSave(m.p.Fingerprint)
	}
	return m.p.Store.FinishGame(m.p.Fingerprint, store.Score{
		Name: m.p.Name, Depth: g.Depth(), Turns: g.Turn(), Kills: g.Kills(),
		Points: g.Score(), Cause: g.Cause(), Date: m.p.Now(),
	})
}

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
