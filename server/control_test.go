package server

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/store/bolt"
)

// A host backs up a running server while people play (grotto backup, over
// the control socket): the copy is one consistent database, and a server
// started on it resumes every game at the turn it held when the copy was
// made, its journal's turns included (the games here were never saved
// whole after turn 0).
func TestABackupOfARunningServerResumesEveryGameAtItsTurn(t *testing.T) {
	dir := t.TempDir()
	_, addr := serve(t, Config{DataDir: dir})
	// Five players stop at turns 3 to 7; five more play on throughout.
	idle := map[gossh.Signer]int{}
	for i := range 5 {
		key := newKey(t)
		c := dial(t, addr, key, 100, 30)
		newGame(t, c)
		idle[key] = 3 + i
		rest(t, c, 3+i)
	}
	stop := make(chan struct{})
	var busy sync.WaitGroup
	for range 5 {
		c := dial(t, addr, newKey(t), 100, 30)
		newGame(t, c)
		busy.Go(func() {
			for n := 1; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				c.Send(".")
				if _, err := c.WaitForText(waitLong, "Turn: "+strconv.Itoa(n)); err != nil {
					return
				}
			}
		})
	}

	copyPath := filepath.Join(t.TempDir(), "backup.db")
	f, err := os.Create(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := RequestBackup(filepath.Join(dir, ControlSocket), f)
	f.Close()
	close(stop)
	busy.Wait()
	if err != nil {
		t.Fatalf("backup while five players played: %v", err)
	}
	if fi, _ := os.Stat(copyPath); fi == nil || fi.Size() != n || n == 0 {
		t.Fatalf("the backup file holds %v bytes, the copy said %d", fi, n)
	}
	st, err := bolt.Open(copyPath, time.Second)
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	if err := st.Verify(); err != nil {
		t.Errorf("the backup fails bbolt's consistency check: %v", err)
	}
	st.Close()

	restored := t.TempDir()
	in, _ := os.Open(copyPath)
	out, _ := os.Create(filepath.Join(restored, DBFile))
	io.Copy(out, in)
	in.Close()
	out.Close()
	_, addr2 := serve(t, Config{DataDir: restored})
	for key, want := range idle {
		c := dial(t, addr2, key, 100, 30)
		screen := waitText(t, c, "Continue")
		if !strings.Contains(screen, "turn "+strconv.Itoa(want)) {
			t.Errorf("the restored title offers another turn than %d:\n%s", want, screen)
		}
		c.Send("\r")
		waitText(t, c, "Turn: "+strconv.Itoa(want))
	}
}

// The control socket answers only what it knows, in one line.
func TestTheControlSocketRefusesAnUnknownRequest(t *testing.T) {
	dir := t.TempDir()
	serve(t, Config{DataDir: dir})
	c, err := dialUnix(filepath.Join(dir, ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "format c:\n")
	c.SetReadDeadline(time.Now().Add(waitLong))
	line, _ := io.ReadAll(c)
	if !strings.HasPrefix(string(line), "ERR unknown request") {
		t.Errorf("an unknown request: %q, want ERR unknown request", line)
	}
	if fi, err := os.Stat(filepath.Join(dir, ControlSocket)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the control socket: %v, %v; want mode 0600", fi, err)
	}
}

func dialUnix(path string) (net.Conn, error) { return net.Dial("unix", path) }
