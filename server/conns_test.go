package server

import (
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// dialNoSession opens an authenticated connection that opens no session.
func dialNoSession(t *testing.T, addr string) (*gossh.Client, error) {
	t.Helper()
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "idler", Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLong})
}

func TestOneAddressCannotHoldHundredsOfConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	lim := DefaultLimits()
	lim.ConnPer10s, lim.IdleTimeout = 10000, 0 // idle checks off: the cap alone must hold
	_, addr := serve(t, Config{Limits: lim})
	const tries = 300
	var mu sync.Mutex
	var held []*gossh.Client
	var wg sync.WaitGroup
	for range tries {
		wg.Go(func() {
			if c, err := dialNoSession(t, addr); err == nil {
				mu.Lock()
				held = append(held, c)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	t.Logf("%d of %d connections without a session held from one address", len(held), tries)
	if len(held) >= tries {
		t.Errorf("all %d connections from one address were held", tries)
	}
}
