package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store/storetest"
)

// asciinema returns the path of asciinema. Without it the test fails (CI
// installs Debian's asciinema package: .ci/run), unless -short.
func asciinema(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("asciinema"); err == nil {
		return p
	}
	if testing.Short() {
		t.Skip("no asciinema on PATH (-short)")
	}
	t.Fatal("no asciinema on PATH: the recording tests need Debian's asciinema package (apt-get install -y asciinema; .ci/run installs it)")
	return ""
}

// castScreen runs `asciinema cat` on the recording rec and returns what a
// terminal of the recording's size (its header's) shows after it.
func castScreen(t *testing.T, rec []byte) string {
	t.Helper()
	bin := asciinema(t)
	var h struct{ Version, Width, Height int }
	line, _, _ := strings.Cut(string(rec), "\n")
	if err := json.Unmarshal([]byte(line), &h); err != nil || h.Version != 2 {
		t.Fatalf("the recording's header %q: %v", line, err)
	}
	file := filepath.Join(t.TempDir(), "game.cast")
	if err := os.WriteFile(file, rec, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	// asciinema cat opens /dev/tty (to read Ctrl+C in raw mode): it runs
	// with a pseudo-terminal as its controlling terminal and stdin, its
	// stdout a pipe.
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	cmd := exec.CommandContext(ctx, bin, "cat", file)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // asciinema keeps its config under HOME
	cmd.Stdin = tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("asciinema cat: %v: %s", err, stderr.String())
	}
	emu := vt.NewEmulator(h.Width, h.Height)
	emu.Write(out)
	return emu.String()
}

// getCast fetches url and returns its status, headers and body.
func getCast(t *testing.T, url string) (int, http.Header, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, body
}

// TestARecordingPlaysTheGameToItsLastFrameInAsciinema: `replay ID --cast`
// over SSH (no terminal: stdout is the recording alone) and
// /replay/ID.cast on the web give a recording that Debian's asciinema
// reads, and `asciinema cat` leaves a terminal of the size asked showing
// the replay's last frame: the game's last turn and how it ended, checked.
// With a terminal, --cast writes the recording all the same. The replay page
// links the download.
func TestARecordingPlaysTheGameToItsLastFrameInAsciinema(t *testing.T) {
	asciinema(t)
	db := storetest.TempBolt(t)
	end := finishGames(t, db, "ann")[0]
	srv, addr := serveDB(t, Config{HTTP: "127.0.0.1:0"}, db)
	base := "http://" + srv.HTTPAddr().String()
	key := newKey(t)
	want := []string{"Replay of ann", "turn " + strconv.Itoa(end.Turn()) + "/" + strconv.Itoa(end.Turn()),
		"the end: " + game.ThirdPerson(end.Cause()) + ", checked"}
	check := func(how string, rec []byte, h int, speed string) {
		t.Helper()
		s := castScreen(t, rec)
		flat := strings.Join(strings.Fields(s), " ")
		for _, want := range append(want, speed) {
			if !strings.Contains(flat, want) {
				t.Errorf("%s: asciinema cat's last screen lacks %q:\n%s", how, want, s)
			}
		}
		if lines := strings.Split(s, "\n"); len(lines) != h {
			t.Errorf("%s: the screen has %d lines, want %d", how, len(lines), h)
		}
	}

	out, errs, status := run(t, login(t, addr, "x", key), "replay 1 --cast --size 100x30 --speed 4 --idle 1")
	if status != 0 || errs != "" {
		t.Fatalf("replay 1 --cast: status %d, stderr %q", status, errs)
	}
	check("over SSH", []byte(out), 30, "4×")
	if !strings.Contains(out[:strings.Index(out, "\n")], `"idle_time_limit":1`) {
		t.Errorf("the header does not keep the idle limit asked: %.200s", out)
	}

	status, hdr, body := getCast(t, base+"/replay/1.cast?size=90x25&speed=0.5")
	if status != http.StatusOK || hdr.Get("Content-Type") != "application/x-asciicast" ||
		hdr.Get("Content-Disposition") != `attachment; filename="grotto-1.cast"` {
		t.Fatalf("/replay/1.cast: status %d, headers %v", status, hdr)
	}
	check("on the web", body, 25, "0.5×")
	if status, _, body := getCast(t, base+"/replay/1"); status != http.StatusOK || !strings.Contains(string(body), `href="/replay/1.cast"`) {
		t.Errorf("the replay page does not offer the download: status %d:\n%s", status, body)
	}

	// With a terminal (ssh -t), the recording is written all the same
	// (its lines end "\r\n" there, which asciinema reads).
	sess := login(t, addr, "x", key)
	if err := sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	out, errs, status = run(t, sess, "replay 1 --cast")
	if status != 0 || errs != "" {
		t.Fatalf("replay 1 --cast with a terminal: status %d, stderr %q", status, errs)
	}
	check("over SSH with a terminal", []byte(out), 24, "1×")

	// Without --cast and without a terminal, replay still says to use -t.
	if out, errs, status := run(t, login(t, addr, "x", key), "replay 1"); status != 1 || out != "" || !strings.Contains(errs, "a replay needs a terminal") || !strings.Contains(errs, "-t") {
		t.Errorf("replay 1 without a terminal: status %d, stdout %q, stderr %q", status, out, errs)
	}
}

// TestARecordingKeepsTheDailyRuleAndRefusesBadOptions: a daily's
// recording is refused while its day goes on, over SSH and the web, with
// the replay's line and nothing on stdout, and opens after 00:00 UTC; an
// unknown game is one line, status 1; options out of bounds are one line
// saying what is allowed (status 2 over SSH, 400 on the web), as are
// words --cast does not take.
func TestARecordingKeepsTheDailyRuleAndRefusesBadOptions(t *testing.T) {
	const day = "2026-11-30"
	db := storetest.TempBolt(t)
	finishDaily(t, db, "ann", day)
	var now atomic.Pointer[time.Time]
	late := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	now.Store(&late)
	srv, addr := serveDB(t, Config{HTTP: "127.0.0.1:0", Clock: func() time.Time { return *now.Load() }}, db)
	base := "http://" + srv.HTTPAddr().String()
	key := newKey(t)

	out, errs, status := run(t, login(t, addr, "x", key), "replay 1 --cast")
	if want := "grotto: this is today's daily challenge: its replay opens after 00:00 UTC\n"; status != 1 || out != "" || errs != want {
		t.Errorf("the cast of today's daily: status %d, stdout %.100q, stderr %q; want 1 and %q", status, out, errs, want)
	}
	if status, _, body := getCast(t, base+"/replay/1.cast"); status != http.StatusNotFound || !strings.Contains(string(body), "its replay opens after 00:00 UTC") {
		t.Errorf("/replay/1.cast of today's daily: status %d:\n%s", status, body)
	}
	if status, _, body := getCast(t, base+"/replay/1"); status != http.StatusNotFound || strings.Contains(string(body), ".cast") {
		t.Errorf("the replay page of today's daily: status %d:\n%s", status, body)
	}

	for _, c := range []struct{ cmd, says string }{
		{"replay 1 --cast --size 10x10", "the size is WIDTHxHEIGHT in cells, from 40x12 to 250x80"},
		{"replay 1 --cast --speed 1000", "the speed is a number from 0.25 to 32"},
		{"replay 1 --cast --idle=-1", "the idle limit is a number of seconds from 0.1 to 60"},
		{"replay 1 --cast --size", "usage: replay ID --cast"},
		{"replay 1 --size 80x24", "usage: replay ID --cast"},
		{"replay 1 --cast --colour", "usage: replay ID --cast"},
	} {
		out, errs, status := run(t, login(t, addr, "x", key), c.cmd)
		if status != 2 || out != "" || !strings.Contains(errs, c.says) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: status %d, stdout %.100q, stderr %q; want 2 and one line saying %q", c.cmd, status, out, errs, c.says)
		}
	}
	for _, q := range []string{"size=80", "size=80x9", "speed=fast", "speed=0", "idle=1e9", "idle=NaN"} {
		status, _, body := getCast(t, base+"/replay/1.cast?"+q)
		if status != http.StatusBadRequest || strings.Count(strings.TrimSpace(string(body)), "\n") != 0 || !strings.Contains(string(body), "bad cast option") {
			t.Errorf("/replay/1.cast?%s: status %d, %q; want 400 and one line", q, status, body)
		}
	}

	if out, errs, status := run(t, login(t, addr, "x", key), "replay 9 --cast"); status != 1 || out != "" || !strings.Contains(errs, `no finished game "9"`) {
		t.Errorf("the cast of no game: status %d, stdout %.100q, stderr %q", status, out, errs)
	}
	if status, _, _ := getCast(t, base+"/replay/9.cast"); status != http.StatusNotFound {
		t.Errorf("/replay/9.cast: status %d, want 404", status)
	}

	after := time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC)
	now.Store(&after)
	out, errs, status = run(t, login(t, addr, "x", key), "replay 1 --cast")
	if status != 0 || errs != "" {
		t.Fatalf("the cast of yesterday's daily: status %d, stderr %q", status, errs)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
	}
	if lines < 10 {
		t.Errorf("the cast of yesterday's daily has %d lines", lines)
	}
	if status, _, _ := getCast(t, base+"/replay/1.cast"); status != http.StatusOK {
		t.Errorf("/replay/1.cast of yesterday's daily: status %d", status)
	}
}
