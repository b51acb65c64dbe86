package keys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

func TestAHostKeyIsCreatedOnceAndThenReused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "host_ed25519")
	first, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if first.PublicKey().Type() != gossh.KeyAlgoED25519 {
		t.Errorf("new host key is %s, want ed25519", first.PublicKey().Type())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("host key file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	k, _, _, _, err := gossh.ParseAuthorizedKey(pub)
	if err != nil || Fingerprint(k) != Fingerprint(first.PublicKey()) {
		t.Errorf("the .pub beside the key is not its public half: %v", err)
	}
	again, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if Fingerprint(again.PublicKey()) != Fingerprint(first.PublicKey()) {
		t.Error("the host key changed on the second load")
	}
}

func TestNodesStartingTogetherOnOneMissingFileGetOneKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_ed25519")
	const nodes = 8
	fps := make([]string, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() {
			s, err := LoadOrCreateHostKey(path)
			if err != nil {
				t.Error(err)
				return
			}
			fps[i] = Fingerprint(s.PublicKey())
		})
	}
	wg.Wait()
	for i, fp := range fps {
		if fp != fps[0] {
			t.Errorf("node %d got host key %s, node 0 got %s", i, fp, fps[0])
		}
	}
}

func TestAKeyWrittenBySSHKeygenFormIsUsedAsItIs(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "host")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shared_key")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := gossh.NewSignerFromKey(priv)
	if Fingerprint(s.PublicKey()) != Fingerprint(want.PublicKey()) {
		t.Error("the loaded host key is not the one in the file")
	}
	if _, err := os.Stat(path + ".pub"); err == nil {
		t.Error("loading an existing key wrote a .pub beside it")
	}
}

func TestAFileThatIsNotAPrivateKeyIsRefusedWithItsNameAndWhy(t *testing.T) {
	dir := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	locked, err := gossh.MarshalPrivateKeyWithPassphrase(priv, "", []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data, want string
		dir              bool
	}{
		{name: "a directory", dir: true, want: "cannot be read"},
		{name: "an empty file", data: "", want: "is empty"},
		{name: "a public key", data: aliceKey + "\n", want: "is a public key"},
		{name: "text", data: "hello\n", want: "is not an SSH private key"},
		{name: "a key with a passphrase", data: string(pem.EncodeToMemory(locked)), want: "passphrase"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			if tc.dir {
				if err := os.Mkdir(path, 0o700); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadOrCreateHostKey(path)
			var hk *HostKeyError
			if !errors.As(err, &hk) {
				t.Fatalf("err = %v, want a *HostKeyError", err)
			}
			if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, tc.want) {
				t.Errorf("err = %q, want the path and %q", msg, tc.want)
			}
			if !tc.dir {
				if got, _ := os.ReadFile(path); string(got) != tc.data {
					t.Error("the refused file was changed")
				}
			}
		})
	}
}
