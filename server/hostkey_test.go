package server

import (
	"net"
	"path/filepath"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/keys"
)

// hostKeyOf returns the fingerprint of the host key the server at addr
// presents.
func hostKeyOf(t *testing.T, addr string) string {
	t.Helper()
	var got string
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "x",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))},
		HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
			got = keys.Fingerprint(k)
			return nil
		},
		Timeout: waitLong,
	})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	return got
}

func TestTwoNodesGivenOneHostKeyFilePresentOneHostKey(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "keys", "grotto_host_key") // made by the first node
	_, a := serve(t, Config{HostKey: shared})
	_, b := serve(t, Config{HostKey: shared})
	_, own := serve(t, Config{}) // its own key, in its data dir
	fa, fb := hostKeyOf(t, a), hostKeyOf(t, b)
	if fa != fb {
		t.Errorf("two nodes with --host-key %s present %s and %s", shared, fa, fb)
	}
	if fo := hostKeyOf(t, own); fo == fa {
		t.Errorf("a node without --host-key presents the shared key %s", fo)
	}
}
