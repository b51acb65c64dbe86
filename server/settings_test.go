package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/keys"
)

// sgrColours returns the SGR sequences of out that set a colour (basic,
// bright, 256 or true colour, foreground or background).
func sgrColours(out string) []string {
	var found []string
	for {
		i := strings.Index(out, "\x1b[")
		if i < 0 {
			return found
		}
		out = out[i+2:]
		j := strings.IndexFunc(out, func(r rune) bool { return r < '0' || r > ';' })
		if j < 0 {
			return found
		}
		if out[j] == 'm' {
			for _, p := range strings.Split(out[:j], ";") {
				if n, err := strconv.Atoi(p); err == nil && (n >= 30 && n <= 48 && n != 39 || n >= 90 && n <= 107) {
					found = append(found, "ESC["+out[:j+1])
					break
				}
			}
		}
		out = out[j:]
	}
}

func TestSettingsChosenInOneSessionHoldInTheNext(t *testing.T) {
	srv, addr := startServer(t)
	key := newKey(t)

	c := dial(t, addr, key, 80, 24)
	newGame(t, c)
	c.Send("O")
	waitText(t, c, "[Unicode]")
	c.Send("\x1b[C") // right: ASCII
	waitText(t, c, "[ASCII]")
	c.Send("j")
	c.Send("\x1b[D") // left from auto: none
	waitText(t, c, "[none]")
	waitText(t, c, "Saved")
	c.Send("\x1b") // back to play
	waitText(t, c, "Turn: 0")
	c.Send("S")
	ended(t, c)

	p, err := srv.Store().Profile(keys.Fingerprint(key.PublicKey()))
	if err != nil || p.Settings.Symbols != "ascii" || p.Settings.Colour != "none" {
		t.Fatalf("profile settings %+v (%v), want ascii and none", p.Settings, err)
	}

	c2 := dial(t, addr, key, 80, 24)
	waitText(t, c2, "Continue")
	c2.Send("\r")
	waitText(t, c2, "Turn: 0")
	c2.Send(".")
	screen := waitText(t, c2, "Turn: 1")
	out := string(c2.Output())
	for i := range len(out) {
		if out[i] > 0x7f {
			t.Fatalf("byte %#x at %d of the second session's output, after choosing ASCII:\n%s", out[i], i, screen)
		}
	}
	if cs := sgrColours(out); len(cs) > 0 {
		t.Errorf("the second session drew colours after choosing none: %q", cs[:min(5, len(cs))])
	}
	if !strings.Contains(screen, "@") || !strings.Contains(screen, "#") {
		t.Errorf("no map in the second session:\n%s", screen)
	}
}
