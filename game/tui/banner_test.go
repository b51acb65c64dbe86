package tui

import (
	"strings"
	"testing"
)

func TestABannerShowsOnEveryScreenUntilAKeyAndThatKeyIsNotPlayed(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	m.Update(BannerMsg{Text: "restart at noon"})
	if s := plain(m); !strings.HasPrefix(s, bannerPrefix+"restart at noon") {
		t.Fatalf("the title screen does not start with the banner:\n%s", s)
	}
	press(m, "enter") // dismisses the banner; does not start a game
	if s := plain(m); strings.Contains(s, "restart at noon") || m.game != nil {
		t.Fatalf("after one key the banner is still up or the key started a game:\n%s", s)
	}
	press(m, "enter")
	turn := m.game.Turn()
	m.Update(BannerMsg{Text: "\x1b[2Jcleared?\r\nnope"})
	s := plain(m)
	if !strings.Contains(s, bannerPrefix+"\uFFFD[2Jcleared?\uFFFD\uFFFDnope") || !strings.Contains(s, "Turn:") {
		t.Fatalf("a banner with control characters, over the game:\n%s", s)
	}
	for _, k := range []string{"l", "l"} {
		press(m, k)
	}
	if got := m.game.Turn(); got != turn+1 {
		t.Errorf("two moves with a banner up: turn %d, want %d (the first key only dismisses it)", got, turn+1)
	}
}

func TestKickAndBanSaveTheGameAndQuitWithTheirOwnExit(t *testing.T) {
	for _, c := range []struct {
		msg  any
		want Exit
	}{{KickedMsg{}, ExitKicked}, {BannedMsg{}, ExitBanned}} {
		st := newFakeStore()
		m := newModel(t, st, 7)
		press(m, "enter")
		press(m, "l")
		if _, cmd := m.Update(c.msg); cmd == nil || m.Exit() != c.want {
			t.Errorf("%T: exit %v, want %v and quit", c.msg, m.Exit(), c.want)
		}
		if _, err := st.Save("SHA256:test"); err != nil {
			t.Errorf("%T: the game is not saved: %v", c.msg, err)
		}
	}
}
