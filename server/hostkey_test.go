package server

import (
	"net"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/keygen"
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

func TestAHostKeyMadeByAnEarlierGrottoIsKept(t *testing.T) {
	// Until --host-key, wish made the key with charmbracelet/keygen.
	dir := t.TempDir()
	old, err := keygen.New(filepath.Join(dir, HostKeyFile), keygen.WithKeyType(keygen.Ed25519), keygen.WithWrite())
	if err != nil {
		t.Fatal(err)
	}
	want := keys.Fingerprint(old.Signer().PublicKey())
	_, addr := serve(t, Config{DataDir: dir})
	if got := hostKeyOf(t, addr); got != want {
		t.Errorf("after the upgrade the host key is %s, was %s", got, want)
	}
}
