package tui

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
)

// fakeRoom is a chat room a test fills and reads.
type fakeRoom struct {
	mu      sync.Mutex
	lines   []ChatLine
	said    []string
	muted   bool
	refuse  error
	changed chan struct{}
}

func newFakeRoom(lines ...ChatLine) *fakeRoom {
	return &fakeRoom{lines: lines, changed: make(chan struct{}, 1)}
}

func (r *fakeRoom) Lines() []ChatLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ChatLine(nil), r.lines...)
}
func (r *fakeRoom) Changed() <-chan struct{} { return r.changed }
func (r *fakeRoom) Say(text string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refuse != nil {
		return r.refuse
	}
	r.said = append(r.said, text)
	r.lines = append(r.lines, ChatLine{Name: "me", Text: text})
	return nil
}
func (r *fakeRoom) MuteWatchers(on bool) { r.mu.Lock(); r.muted = on; r.mu.Unlock() }
func (r *fakeRoom) WatchersMuted() bool  { r.mu.Lock(); defer r.mu.Unlock(); return r.muted }
func (r *fakeRoom) Close()               {}

// add says a line as someone else, as the lobby would.
func (r *fakeRoom) add(l ChatLine) {
	r.mu.Lock()
	r.lines = append(r.lines, l)
	r.mu.Unlock()
}

// chatLobby offers one room for every game, and for the session's own.
type chatLobby struct {
	fanLobby
	room *fakeRoom
}

func (l *chatLobby) Chat(uint64) (ChatRoom, bool) { return l.room, true }

// playingWithChat is a player at 80x24 in a new game whose chat is room.
func playingWithChat(t *testing.T, room *fakeRoom) *Model {
	t.Helper()
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 7)
	p.Lobby = &chatLobby{room: room}
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Init()
	press(m, "n")
	return m
}

func TestThePlayerSeesTheChatUnderTheMessagesWithoutAKeyAndCanTurnItOffAndMuteWatchers(t *testing.T) {
	room := newFakeRoom()
	m := playingWithChat(t, room)
	before := strings.Split(plain(m), "\n")
	room.add(ChatLine{Name: "wat", Text: "hi \x1b[31mthere\x07"})
	m.Update(chatMsg{room: room, open: true}) // no key pressed
	after := strings.Split(plain(m), "\n")
	if len(after) != len(before) {
		t.Fatalf("the chat changed the screen's height: %d rows, then %d", len(before), len(after))
	}
	mapRows, _ := m.layout()
	for i := range mapRows + 1 { // the map and the status line
		if before[i] != after[i] {
			t.Fatalf("row %d changed with a chat line:\n%q\n%q", i, before[i], after[i])
		}
	}
	if last := after[len(after)-1]; !strings.Contains(last, "<wat> hi \uFFFD[31mthere\uFFFD") {
		t.Fatalf("the last row is %q, want the chat line shown inert", last)
	}
	if v := m.View().Content; strings.Contains(v, "\x07") || strings.Contains(v, "[31mthere") && strings.Contains(v, "\x1b[31mthere") {
		t.Fatalf("an escape from the chat reached the frame: %q", v)
	}
	press(m, "O") // the settings: chat off
	press(m, "down")
	press(m, "down")
	if s := plain(m); !strings.Contains(s, "Watchers") {
		t.Fatalf("the settings of a game with a chat offer no mute of its watchers:\n%s", s)
	}
	press(m, "right")
	if m.set.Chat != ChatOff {
		t.Fatalf("the chat setting is %q", m.set.Chat)
	}
	press(m, "down")
	press(m, "right")
	if !room.WatchersMuted() {
		t.Fatal("the watchers were not muted")
	}
	press(m, "esc")
	if s := plain(m); strings.Contains(s, "<wat>") {
		t.Fatalf("the chat shows while off:\n%s", s)
	}
}

// watching returns a watcher's model of a new game whose chat is room,
// width cells wide, with the game's first frame drawn.
func watching(t *testing.T, room *fakeRoom, width int) *Model {
	t.Helper()
	blob, err := game.New(7, content.Default()).Encode()
	if err != nil {
		t.Fatal(err)
	}
	l := &chatLobby{room: room}
	f := frame.New(blob, content.Default())
	l.latest = f
	m, ok := NewWatcher(l, nil, LiveGame{ID: 3, Name: "tester"})
	if !ok {
		t.Fatal("not watching")
	}
	m.Update(tea.WindowSizeMsg{Width: width, Height: 24})
	m.Update(frameMsg{f})
	return m
}

func TestAWatcherTypesALineAndSeesWhyOneIsRefused(t *testing.T) {
	room := newFakeRoom(ChatLine{Name: "tester", Text: "welcome", Player: true})
	m := watching(t, room, 80)
	if s := plain(m); !strings.Contains(s, "<tester*> welcome") || !strings.Contains(s, "c chat") {
		t.Fatalf("the watch screen without the chat:\n%s", s)
	}
	press(m, "c")
	for _, k := range []string{"h", "i", "q"} { // q types, it does not quit
		press(m, k)
	}
	m.Update(tea.KeyPressMsg{Code: 0x1b, Text: "\x1b[2J"}) // a key whose text is an escape
	if s := plain(m); !strings.Contains(s, "Say: hiq\uFFFD[2J_") {
		t.Fatalf("the input line:\n%s", s)
	}
	press(m, "enter")
	if len(room.said) != 1 || room.said[0] != "hiq\uFFFD[2J" {
		t.Fatalf("said %q", room.said)
	}
	room.refuse = errors.New("slow down: one line a second")
	press(m, "enter")
	press(m, "x")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "slow down") {
		t.Fatalf("a refused line is not explained:\n%s", s)
	}
	press(m, "esc") // not typing: leaves
}

// A watcher learns that the player muted the watchers before typing a
// line, not only from its refusal (a community tester).
func TestAWatcherSeesThatThePlayerMutedTheWatchers(t *testing.T) {
	room := newFakeRoom()
	room.MuteWatchers(true)
	m := watching(t, room, 100)
	if s := plain(m); !strings.Contains(s, "chat closed by the player") || strings.Contains(s, "c chat") {
		t.Fatalf("the watch screen of a muted chat:\n%s", s)
	}
}

// TestThePlayerAnswersInTheChat: " opens a line under the messages; what is
// typed is text, not commands (h does not move); Enter says it; a refusal
// is shown; Esc cancels (a community tester: the player could only read).
func TestThePlayerAnswersInTheChat(t *testing.T) {
	room := newFakeRoom()
	m := playingWithChat(t, room)
	turn, pos := m.game.Turn(), m.game.Player().Pos
	press(m, `"`)
	for _, k := range []string{"h", "i", " ", "a", "l", "l"} {
		press(m, k)
	}
	if s := plain(m); !strings.Contains(s, "Say: hi all_") {
		t.Fatalf("the player's chat input:\n%s", s)
	}
	press(m, "enter")
	if len(room.said) != 1 || room.said[0] != "hi all" || m.game.Turn() != turn || m.game.Player().Pos != pos {
		t.Fatalf("said %q; turn %d→%d: typed keys played as commands", room.said, turn, m.game.Turn())
	}
	room.refuse = errors.New("slow down: one line a second")
	press(m, `"`)
	press(m, "x")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "slow down") {
		t.Fatalf("a refused line is not explained:\n%s", s)
	}
	press(m, `"`)
	press(m, "esc")
	press(m, "l")
	if m.game.Turn() != turn+1 {
		t.Errorf("after Esc closed the input, l did not move (turn %d)", m.game.Turn())
	}
}

// On a terminal of 24 rows the player reads the two newest lines of a
// conversation, under the game's newest messages.
func TestThePlayerReadsTheTwoNewestChatLines(t *testing.T) {
	room := newFakeRoom(ChatLine{Name: "a", Text: "one"}, ChatLine{Name: "b", Text: "two"}, ChatLine{Name: "a", Text: "three"})
	m := playingWithChat(t, room)
	m.Update(chatMsg{room: room, open: true})
	rows := strings.Split(plain(m), "\n")
	if len(rows) < 2 || !strings.Contains(rows[len(rows)-2], "<b> two") || !strings.Contains(rows[len(rows)-1], "<a> three") || strings.Contains(plain(m), "<a> one") {
		t.Fatalf("the last rows:\n%s", strings.Join(rows[max(0, len(rows)-3):], "\n"))
	}
}

// toggleChat turns the player's chat off (or on again) in the settings.
func toggleChat(m *Model) {
	press(m, "O")
	press(m, "down")
	press(m, "down")
	press(m, "right")
	press(m, "esc")
}

// TestThePlayersChatOffTellsTheWatchersAndKeepsTheirOwnMuteChoice: while
// the player's chat is off, its watchers are refused at once (the room's
// mute) and read that on their screen; turned on again, the player's own
// Watchers choice holds again (a community tester's watchers thought their
// lines were read).
func TestThePlayersChatOffTellsTheWatchersAndKeepsTheirOwnMuteChoice(t *testing.T) {
	room := newFakeRoom()
	m := playingWithChat(t, room)
	toggleChat(m)
	if m.set.Chat != ChatOff || !room.WatchersMuted() {
		t.Fatalf("chat %q, watchers muted %v: the player's chat is off and the watchers may still talk", m.set.Chat, room.WatchersMuted())
	}
	press(m, "O")
	if s := plain(m); !strings.Contains(s, "muted while your chat is off") {
		t.Fatalf("the settings do not say the watchers are muted with the chat off:\n%s", s)
	}
	press(m, "esc")
	w := watching(t, room, 120)
	if s := plain(w); !strings.Contains(s, "chat closed by the player") || strings.Contains(s, "c chat") {
		t.Fatalf("a watcher of a player whose chat is off:\n%s", s)
	}
	toggleChat(m)
	if m.set.Chat != ChatOn || room.WatchersMuted() {
		t.Fatalf("chat %q, watchers muted %v: chat on again, the watchers (never muted by the player) are still muted", m.set.Chat, room.WatchersMuted())
	}
	// Muted by the player's own choice, the watchers stay muted through an
	// off and on of the chat.
	press(m, "O")
	for range 3 {
		press(m, "down")
	}
	press(m, "right")
	press(m, "esc")
	if !room.WatchersMuted() {
		t.Fatal("the Watchers setting did not mute")
	}
	toggleChat(m)
	toggleChat(m)
	if m.set.Chat != ChatOn || !room.WatchersMuted() {
		t.Fatalf("chat %q, watchers muted %v: the player's own mute was lost with the chat's off and on", m.set.Chat, room.WatchersMuted())
	}
}

// TestQuoteWithTheChatOffNeverPlaysTheSentenceAsMoves: " with the chat
// off opens the line anyway, saying the chat is off; what is typed after
// it is text (a community tester's reply moved the character three turns).
func TestQuoteWithTheChatOffNeverPlaysTheSentenceAsMoves(t *testing.T) {
	room := newFakeRoom()
	m := playingWithChat(t, room)
	toggleChat(m)
	turn, pos := m.game.Turn(), m.game.Player().Pos
	press(m, `"`)
	for _, k := range []string{"h", "j", "k", "l"} {
		press(m, k)
	}
	if m.game.Turn() != turn || m.game.Player().Pos != pos {
		t.Fatalf("turn %d→%d: a sentence typed after \" with the chat off was played as moves", turn, m.game.Turn())
	}
	if s := plain(m); !strings.Contains(s, "Say: hjkl_") || !strings.Contains(s, "chat is off") {
		t.Fatalf("\" with the chat off:\n%s", s)
	}
	press(m, "enter")
	if len(room.said) != 1 || room.said[0] != "hjkl" {
		t.Fatalf("said %q", room.said)
	}
}

// TestARefusalGoesOnceItNoLongerHolds: a watcher refused for the player's
// mute reads the refusal until the mute is lifted, then no more; a refusal
// the screen cannot check (an admin's mute, lifted by `unmute` without
// telling anyone) goes when the input opens again, or after a while; the
// player's likewise (a community tester read "an admin has muted this key"
// for ten minutes after the unmute).
func TestARefusalGoesOnceItNoLongerHolds(t *testing.T) {
	room := newFakeRoom()
	m := watching(t, room, 120)
	now := testNow
	m.p.Now = func() time.Time { return now }
	room.MuteWatchers(true)
	room.refuse = errors.New("the player has muted the watchers or does not read the chat")
	m.Update(chatMsg{room: room, open: true})
	press(m, "c")
	press(m, "x")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "\nthe player has muted the watchers") {
		t.Fatalf("the refusal is not shown:\n%s", s)
	}
	room.refuse = nil
	room.MuteWatchers(false)
	m.Update(chatMsg{room: room, open: true})
	if s := plain(m); strings.Contains(s, "\nthe player has muted the watchers") || !strings.Contains(s, "c chat") {
		t.Fatalf("the player lifted the mute and the refusal stays:\n%s", s)
	}

	room.refuse = errors.New("an admin has muted this key in the chat")
	press(m, "c")
	press(m, "x")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "admin has muted") {
		t.Fatalf("the admin's mute is not shown:\n%s", s)
	}
	press(m, "c") // opening the input again: the refusal was about the last line
	if s := plain(m); strings.Contains(s, "admin has muted") {
		t.Fatalf("the input opened again and the old refusal stays:\n%s", s)
	}
	press(m, "x")
	press(m, "enter")
	room.refuse = nil // `unmute`: nothing tells the screen
	now = now.Add(time.Minute)
	m.Update(frameMsg{nil})
	if s := plain(m); strings.Contains(s, "admin has muted") {
		t.Fatalf("a minute after it, the refusal stays:\n%s", s)
	}

	p := playingWithChat(t, room)
	pnow := testNow
	p.p.Now = func() time.Time { return pnow }
	room.refuse = errors.New("an admin has muted this key in the chat")
	press(p, `"`)
	press(p, "x")
	press(p, "enter")
	if s := plain(p); !strings.Contains(s, "admin has muted") {
		t.Fatalf("the player's refusal is not shown:\n%s", s)
	}
	room.refuse = nil
	pnow = pnow.Add(time.Minute)
	room.add(ChatLine{Name: "wat", Text: "hello"})
	p.Update(chatMsg{room: room, open: true})
	if s := plain(p); strings.Contains(s, "admin has muted") {
		t.Fatalf("a minute after it, the player's refusal stays:\n%s", s)
	}
}

// tooFast is a refusal a retry can fix, as the lobby's rate refuses.
type tooFast struct{}

func (tooFast) Error() string   { return "slow down: one line a second" }
func (tooFast) Temporary() bool { return true }

// TestALineRefusedForItsRateIsKeptToSayAgain: a line refused as too fast
// stays in the input, the refusal shown above it, and Enter says it again;
// a refusal a retry cannot fix closes the input (a community tester's
// fourth quick line was lost, and c gave an empty "Say: _").
func TestALineRefusedForItsRateIsKeptToSayAgain(t *testing.T) {
	check := func(t *testing.T, m *Model, room *fakeRoom, open string) {
		t.Helper()
		room.refuse = tooFast{}
		press(m, open)
		for _, k := range []string{"h", "e", "y"} {
			press(m, k)
		}
		press(m, "enter")
		s := plain(m)
		if !strings.Contains(s, "slow down") || !strings.Contains(s, "Say: hey_") {
			t.Fatalf("a line refused as too fast is not kept to say again:\n%s", s)
		}
		room.refuse = nil
		press(m, "enter")
		if len(room.said) != 1 || room.said[0] != "hey" {
			t.Fatalf("said %q", room.said)
		}
		if s := plain(m); strings.Contains(s, "Say: ") || strings.Contains(s, "slow down") {
			t.Fatalf("the line said, the input or the refusal stays:\n%s", s)
		}
		room.refuse = errors.New("an admin has muted this key in the chat")
		press(m, open)
		press(m, "x")
		press(m, "enter")
		if s := plain(m); strings.Contains(s, "Say: ") || !strings.Contains(s, "admin has muted") {
			t.Fatalf("a line no retry can say keeps the input open:\n%s", s)
		}
	}
	t.Run("a watcher", func(t *testing.T) {
		room := newFakeRoom()
		check(t, watching(t, room, 100), room, "c")
	})
	t.Run("the player", func(t *testing.T) {
		room := newFakeRoom()
		check(t, playingWithChat(t, room), room, `"`)
	})
}

// TestATakeOverWithTheChatOffLetsTheWatchersTalkOnceItIsOn: the session
// that takes over a game whose chat was off finds its watchers muted; it
// cannot tell that from the player's own choice, so it takes "may talk",
// the default, and turning the chat on lets them talk (a breaker's
// watchers stayed muted for good after such a take-over).
func TestATakeOverWithTheChatOffLetsTheWatchersTalkOnceItIsOn(t *testing.T) {
	room := newFakeRoom()
	first := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 7)
	first.Lobby = &chatLobby{room: room}
	m := New(first)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Init()
	press(m, "n")
	toggleChat(m) // off, kept in the profile; the room is muted
	if !room.WatchersMuted() {
		t.Fatal("the chat off did not mute the watchers")
	}

	second := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 7) // the take-over: the same room, the profile's settings
	second.Settings = m.set
	second.Lobby = &chatLobby{room: room}
	n := New(second)
	n.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	n.Init()
	press(n, "n")
	if n.set.Chat != ChatOff {
		t.Fatalf("the second session's chat is %q, want off as the profile keeps it", n.set.Chat)
	}
	toggleChat(n)
	if n.set.Chat != ChatOn || room.WatchersMuted() {
		t.Errorf("chat %q, watchers muted %v: after the take-over the chat is on and the watchers still muted", n.set.Chat, room.WatchersMuted())
	}
}

// TestAMutedWatchersStatusFitsEightyColumns: the watch screen's status
// with the chat closed by the player fits one row at 80 columns (a
// breaker saw it wrap onto a second).
func TestAMutedWatchersStatusFitsEightyColumns(t *testing.T) {
	room := newFakeRoom()
	room.MuteWatchers(true)
	m := watching(t, room, 80)
	for _, line := range strings.Split(plain(m), "\n") {
		if strings.Contains(line, "Watching") && !strings.Contains(line, "v chat log") {
			t.Errorf("the status is cut or wrapped at 80 columns: %q\n%s", line, plain(m))
		}
	}
}
