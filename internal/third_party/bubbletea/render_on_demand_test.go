package tea

// grotto patch (see internal/third_party/README.md): the render loop draws on demand. These
// tests read the loop's steps through renderTrace, so they hold on a slow
// machine as on a fast one: no assertion is on how long anything took.

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// countModel shows a number that setMsg changes.
type countModel struct{ n int }

type setMsg int

func (m *countModel) Init() Cmd { return nil }

func (m *countModel) Update(msg Msg) (Model, Cmd) {
	if n, ok := msg.(setMsg); ok {
		m.n = int(n)
	}
	return m, nil
}

func (m *countModel) View() View { return NewView(fmt.Sprintf("count %d", m.n)) }

// lockedBuffer is an output the test reads while the program writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startTraced runs a countModel at fps and returns the program, its
// output and the render loop's steps.
func startTraced(t *testing.T, fps int) (*Program, *lockedBuffer, <-chan string) {
	t.Helper()
	out := &lockedBuffer{}
	steps := make(chan string, 4096)
	p := NewProgram(&countModel{}, WithInput(nil), WithOutput(out), WithFPS(fps), WithWindowSize(80, 24))
	p.renderTrace = func(step string) { steps <- step }
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	t.Cleanup(func() {
		p.Quit()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the program did not end within 10 s of Quit")
		}
	})
	return p, out, steps
}

// nextStep returns the loop's next step, failing after a generous deadline.
func nextStep(t *testing.T, steps <-chan string) string {
	t.Helper()
	select {
	case s := <-steps:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("the render loop took no step within 10 s")
		return ""
	}
}

// untilPark reads steps until the loop parks and returns the frames drawn.
func untilPark(t *testing.T, steps <-chan string) (lead, trail int) {
	t.Helper()
	for {
		switch nextStep(t, steps) {
		case "lead":
			lead++
		case "trail":
			trail++
		case "park":
			return lead, trail
		}
	}
}

func TestAnIdleProgramParksItsRenderLoop(t *testing.T) {
	_, out, steps := startTraced(t, 60)
	lead, trail := untilPark(t, steps)
	if lead+trail != 1 {
		t.Errorf("the first view took %d frames, want 1", lead+trail)
	}
	if !strings.Contains(out.String(), "count 0") {
		t.Errorf("the first frame is not written: %q", out.String())
	}
	// Parked means blocked on a wake with no timer running: the program
	// writes nothing until something changes. Upstream's ticker takes a
	// step 60 times a second for ever instead.
	select {
	case s := <-steps:
		t.Errorf("a parked loop took a step (%q) with nothing to draw", s)
	default:
	}
}

func TestTheFirstChangeAfterAQuietSpellIsDrawnAtOnce(t *testing.T) {
	p, out, steps := startTraced(t, 10)
	untilPark(t, steps)
	p.Send(setMsg(7))
	if s := nextStep(t, steps); s != "lead" {
		t.Fatalf("the change was drawn by %q, want at once (lead)", s)
	}
	// The renderer writes only the cells that changed: the digit.
	if !strings.HasSuffix(out.String(), "7") {
		t.Errorf("the change is not written: %q", out.String())
	}
}

func TestABurstOfChangesIsCoalescedToTheFrameRate(t *testing.T) {
	const fps, changes = 20, 200
	p, out, steps := startTraced(t, fps)
	untilPark(t, steps)
	began := time.Now()
	for i := 1; i <= changes; i++ {
		p.Send(setMsg(i))
	}
	lead, trail := untilPark(t, steps)
	took := time.Since(began)
	// At most one frame at once, then one an interval: however long the
	// burst took to send on this machine, no more frames than that.
	interval := time.Second / fps
	most := 2 + int(took/interval)
	if lead != 1 || lead+trail > most {
		t.Errorf("%d changes in %v drew %d frames at once and %d after, want 1 and at most %d in all",
			changes, took, lead, trail, most)
	}
	// The renderer writes only the cells that changed: the digits.
	if !strings.HasSuffix(out.String(), fmt.Sprint(changes)) {
		t.Errorf("the last change is not drawn: %q", out.String())
	}
}

// recordingObserver is a FrameObserver that notes, for each frame, how
// many bytes the output held when it began and ended.
type recordingObserver struct {
	out    *lockedBuffer
	frames chan [2]int // [bytes at FrameStart, bytes at FrameEnd]
	start  int
}

func (o *recordingObserver) FrameStart() { o.start = len(o.out.String()) }
func (o *recordingObserver) FrameEnd()   { o.frames <- [2]int{o.start, len(o.out.String())} }

func TestAFrameObserverHearsOfAFrameThatWroteNothing(t *testing.T) {
	out := &lockedBuffer{}
	o := &recordingObserver{out: out, frames: make(chan [2]int, 64)}
	p := NewProgram(&countModel{}, WithInput(nil), WithOutput(out), WithFPS(10), WithWindowSize(80, 24), WithFrameObserver(o))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = p.Run()
	}()
	defer func() { p.Quit(); <-done }()
	next := func() [2]int {
		select {
		case f := <-o.frames:
			return f
		case <-time.After(10 * time.Second):
			t.Fatal("no frame within 10 s")
			return [2]int{}
		}
	}
	if f := next(); f[1] == f[0] {
		t.Fatalf("the first frame wrote nothing: %v", f)
	}
	p.Send(setMsg(3))
	if f := next(); f[1] == f[0] || !strings.HasSuffix(out.String(), "3") {
		t.Fatalf("the change's frame wrote %d bytes, output %q", f[1]-f[0], out.String())
	}
	p.Send(setMsg(3)) // the same view: a frame that writes nothing
	if f := next(); f[1] != f[0] {
		t.Errorf("an unchanged view's frame wrote %d bytes", f[1]-f[0])
	}
}
