package lobby

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestAChatLineIsMadeInertAndBounded(t *testing.T) {
	c := NewChat("SHA256:owner", nil)
	for _, tc := range []struct{ in, want string }{
		{"hello", "hello"},
		{"  two\r\n lines\tand tabs ", "two lines and tabs"},
		{"\x1b]2;pwned\x07red \x1b[31mtext", "\uFFFD]2;pwned\uFFFDred \uFFFD[31mtext"},
		{"abc\u202edef", "abc\uFFFDdef"},
		{"bad \xff byte", "bad \uFFFD byte"},
	} {
		c = NewChat("SHA256:owner", nil) // a fresh rate for every line
		l, err := c.Say("SHA256:a", "alice", tc.in)
		if err != nil || l.Text != tc.want {
			t.Errorf("Say(%q) = %q, %v; want %q", tc.in, l.Text, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name, text string
		want       error
	}{
		{"", "hi", ErrChatNoName},
		{"bob", " \n\t ", ErrChatEmpty},
		{"bob", strings.Repeat("é", ChatMaxRunes+1), ErrChatTooLong},
	} {
		if _, err := c.Say("SHA256:b", tc.name, tc.text); !errors.Is(err, tc.want) {
			t.Errorf("Say(%q, %q) = %v, want %v", tc.name, tc.text, err, tc.want)
		}
	}
	if _, err := c.Say("SHA256:b", "bob", strings.Repeat("é", ChatMaxRunes)); err != nil {
		t.Errorf("a line of exactly %d runes: %v", ChatMaxRunes, err)
	}
}

func TestAKeyMaySayABurstThenOneLineASecond(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1e9, 0)}
	c := NewChat("SHA256:owner", clk.now)
	for i := range ChatBurst {
		if _, err := c.Say("SHA256:a", "alice", fmt.Sprint(i)); err != nil {
			t.Fatalf("line %d of the burst: %v", i, err)
		}
	}
	if _, err := c.Say("SHA256:a", "alice", "more"); !errors.Is(err, ErrChatTooFast) {
		t.Fatalf("past the burst: %v, want ErrChatTooFast", err)
	}
	if _, err := c.Say("SHA256:b", "bob", "another key"); err != nil {
		t.Fatalf("another key is not slowed by the first: %v", err)
	}
	clk.add(ChatEvery)
	if _, err := c.Say("SHA256:a", "alice", "later"); err != nil {
		t.Fatalf("a second later: %v", err)
	}
	if _, err := c.Say("SHA256:a", "alice", "again"); !errors.Is(err, ErrChatTooFast) {
		t.Fatalf("two in that second: %v", err)
	}
}

func TestAGameTakesAtMostItsBurstFromManyKeysAtOnce(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1e9, 0)}
	c := NewChat("SHA256:owner", clk.now)
	ok := 0
	for i := range 500 {
		if _, err := c.Say(fmt.Sprintf("SHA256:%d", i), "w", "flood"); err == nil {
			ok++
		}
	}
	if ok != ChatGameBurst {
		t.Fatalf("500 keys at once: %d lines taken, want %d", ok, ChatGameBurst)
	}
	if len(c.keys) > 2*ChatGameBurst {
		t.Fatalf("the chat remembers %d keys' rates", len(c.keys))
	}
}

func TestAChatKeepsItsNewestLinesOnly(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1e9, 0)}
	c := NewChat("SHA256:owner", clk.now)
	for i := range ChatHistory + 7 {
		clk.add(ChatEvery)
		if _, err := c.Say("SHA256:a", "alice", fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	lines := c.Lines()
	if len(lines) != ChatHistory || lines[0].Text != "7" || lines[ChatHistory-1].Text != fmt.Sprint(ChatHistory+6) {
		t.Fatalf("kept %d lines, %q..%q", len(lines), lines[0].Text, lines[len(lines)-1].Text)
	}
}

func TestMutedWatchersCannotTalkButThePlayerCan(t *testing.T) {
	c := NewChat("SHA256:owner", nil)
	c.MuteWatchers(true)
	if _, err := c.Say("SHA256:w", "wat", "hi"); !errors.Is(err, ErrChatMuted) {
		t.Fatalf("a muted watcher: %v", err)
	}
	if l, err := c.Say("SHA256:owner", "me", "hi"); err != nil || !l.Player {
		t.Fatalf("the player: %+v, %v", l, err)
	}
	c.MuteWatchers(false)
	if _, err := c.Say("SHA256:w", "wat", "hi"); err != nil {
		t.Fatalf("unmuted: %v", err)
	}
}

// A watcher's screen learns of a mute at once, not at the next line.
func TestListenersAreToldWhenThePlayerMutesOrUnmutesTheWatchers(t *testing.T) {
	c := NewChat("SHA256:owner", nil)
	changed, stop := c.Listen()
	defer stop()
	for _, on := range []bool{true, false} {
		c.MuteWatchers(on)
		select {
		case <-changed:
		default:
			t.Fatalf("MuteWatchers(%v) told no listener", on)
		}
	}
	c.MuteWatchers(false) // no change: nothing to tell
	select {
	case <-changed:
		t.Error("a mute that changed nothing woke the listeners")
	default:
	}
}

func TestListenersAreToldOnceForManyLinesAndSeeTheChatClose(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1e9, 0)}
	c := NewChat("SHA256:owner", clk.now)
	ch, stop := c.Listen()
	defer stop()
	for i := range 5 {
		c.Say(fmt.Sprintf("SHA256:%d", i), "w", "x")
	}
	<-ch
	select {
	case <-ch:
		t.Fatal("told twice for lines said before one read")
	default:
	}
	c.Close()
	if _, ok := <-ch; ok {
		t.Fatal("the channel stays open after Close")
	}
	if _, err := c.Say("SHA256:9", "w", "x"); !errors.Is(err, ErrChatClosed) {
		t.Fatalf("after Close: %v", err)
	}
	stop() // after Close: nothing to do
}

func TestAChatIsSafeForConcurrentUse(t *testing.T) {
	c := NewChat("SHA256:owner", nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			ch, stop := c.Listen()
			defer stop()
			for j := range 50 {
				c.Say(fmt.Sprintf("SHA256:%d", i), "w", fmt.Sprint(j))
				c.Lines()
				c.MuteWatchers(j%7 == 0)
				select {
				case <-ch:
				default:
				}
			}
		})
	}
	wg.Wait()
	c.Close()
}

func TestTheChatOfAGameLastsThroughATakeOverAndClosesWithIt(t *testing.T) {
	m := NewMemory(nil)
	s, err := m.Claim(Holder{Key: "SHA256:k", Name: "kay"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := m.ChatOf("SHA256:k")
	if !ok {
		t.Fatal("no chat for a claimed game")
	}
	if c2, ok := m.ChatOfGame(s.ID()); !ok || c2 != c {
		t.Fatal("ChatOfGame is not the key's chat")
	}
	c.Say("SHA256:w", "wat", "hello")
	spec, _ := m.Spectate(Holder{Key: "SHA256:k"})
	if _, ok := m.ChatOfGame(spec.ID()); ok {
		t.Fatal("a spectator slot has a chat")
	}
	done := make(chan error)
	go func() { done <- spec.TakeOver(t.Context(), func() string { return "kay" }) }()
	<-s.Lost()
	s.Release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	c3, ok := m.ChatOf("SHA256:k")
	if !ok || c3 != c || len(c3.Lines()) != 1 {
		t.Fatal("the chat did not follow the take-over")
	}
	ch, stop := c.Listen()
	defer stop()
	spec.Release()
	if _, ok := <-ch; ok {
		t.Fatal("the chat stays open after its player left")
	}
	if _, ok := m.ChatOf("SHA256:k"); ok {
		t.Fatal("a chat for a key that plays no more")
	}
}

// TestOnlyARateRefusalIsTemporary: a screen keeps a line refused for its
// rate to say again (tui.ChatRoom.Say), and no other.
func TestOnlyARateRefusalIsTemporary(t *testing.T) {
	temp := func(err error) bool {
		var t interface{ Temporary() bool }
		return errors.As(err, &t) && t.Temporary()
	}
	if !temp(ErrChatTooFast) || !errors.Is(ErrChatTooFast, ErrChatTooFast) {
		t.Error("too fast is not temporary")
	}
	for _, err := range []error{ErrChatNoName, ErrChatEmpty, ErrChatTooLong, ErrChatMuted, ErrChatClosed} {
		if temp(err) {
			t.Errorf("%v is temporary", err)
		}
	}
}
