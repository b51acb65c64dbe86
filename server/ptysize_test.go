package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// TestEverySizeAClientClaimsGetsAReadableScreen: a client that claims no
// size (0x0, as `ssh -tt host </dev/null` sends), or no columns or no
// rows, plays at 80x24 in the missing dimension (RFC 4254 section 6.2:
// zero dimensions are ignored), so its 80x24 terminal shows the title
// screen rather than nothing until the idle timeout; one too small (1x1)
// is told in one line what size grotto needs.
func TestEverySizeAClientClaimsGetsAReadableScreen(t *testing.T) {
	_, addr := startServer(t)
	for _, c := range []struct {
		claim sshtest.Size
		want  string
	}{
		{sshtest.Size{}, "New game"},
		{sshtest.Size{Rows: 24}, "New game"},
		{sshtest.Size{Cols: 80}, "New game"},
		{sshtest.Size{Cols: 1, Rows: 1}, "grotto needs a terminal of at least 40x12 (this one is 1x1): please enlarge it."},
		{sshtest.Size{Cols: 1 << 30, Rows: 1 << 30}, ""}, // clamped (server/guard); drawn from the top left
	} {
		t.Run(fmt.Sprintf("%dx%d", c.claim.Cols, c.claim.Rows), func(t *testing.T) {
			claim := c.claim
			cl, err := sshtest.Dial(addr, newKey(t), sshtest.Options{Width: 80, Height: 24, Claim: &claim})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			_, err = cl.WaitFor(ctx, func(s string) bool {
				if c.want == "" { // a screen larger than the terminal: its top left shows
					return strings.TrimSpace(s) != ""
				}
				if strings.HasPrefix(c.want, "grotto needs") { // no room on the screen: the title bar says it
					return cl.Title() == c.want && strings.TrimSpace(s) != ""
				}
				return strings.Contains(s, c.want) || strings.Contains(s, "Choose the name")
			})
			if err != nil {
				t.Errorf("claiming %dx%d: %v; the title bar: %q", claim.Cols, claim.Rows, err, cl.Title())
			}
		})
	}
}
