package tea

// grotto patch (see internal/third_party/README.md): a renderer borrows its
// frame's cell buffer from frameBuffers for one flush and gives it back.
// These tests draw with renderers of two sizes in turn, so each borrows a
// buffer the other left, of the wrong size and with the other's cells.

import (
	"bytes"
	"strings"
	"testing"
)

// drawFrame renders content on r and returns what the flush wrote.
func drawFrame(t *testing.T, r *cursedRenderer, out *bytes.Buffer, content string) string {
	t.Helper()
	out.Reset()
	r.render(View{Content: content, AltScreen: true})
	if err := r.flush(false); err != nil {
		t.Fatalf("flush: %v", err)
	}
	return out.String()
}

func TestAnIdleRendererHoldsNoFrameBuffer(t *testing.T) {
	var out bytes.Buffer
	r := newCursedRenderer(&out, []string{"TERM=xterm-256color"}, 80, 24)
	drawFrame(t, r, &out, "hello")
	if r.cellbuf.RenderBuffer != nil {
		t.Fatalf("after its flush the renderer still holds a %dx%d frame buffer", r.cellbuf.Width(), r.cellbuf.Height())
	}
}

func TestFramesStayIncrementalWhenBuffersAreShared(t *testing.T) {
	var bigOut, smallOut bytes.Buffer
	big := newCursedRenderer(&bigOut, []string{"TERM=xterm-256color"}, 80, 24)
	small := newCursedRenderer(&smallOut, []string{"TERM=xterm-256color"}, 12, 3)

	if got := drawFrame(t, big, &bigOut, "left alone\nabcdef"); !strings.Contains(got, "left alone") {
		t.Fatalf("the first frame does not draw its text: %q", got)
	}
	if got := drawFrame(t, small, &smallOut, "zzzzzzzzzzzz\nzzzzzzzzzzzz\nzzzzzzzzzzzz"); !strings.Contains(got, "zzzzzzzzzzzz") {
		t.Fatalf("the small renderer's first frame does not draw its text: %q", got)
	}

	// One cell changed: the big renderer writes that cell, not the line,
	// not the lines it did not change, and none of the small one's cells.
	got := drawFrame(t, big, &bigOut, "left alone\nabcdeX")
	if !strings.Contains(got, "X") {
		t.Fatalf("the changed cell is not written: %q", got)
	}
	for _, stale := range []string{"left alone", "abcde", "z"} {
		if strings.Contains(got, stale) {
			t.Fatalf("a one-cell change wrote %q again: %q", stale, got)
		}
	}

	// The small renderer, after the big one's buffer: the same.
	got = drawFrame(t, small, &smallOut, "zzzzzzzzzzzz\nzzzzzYzzzzzz\nzzzzzzzzzzzz")
	if !strings.Contains(got, "Y") || strings.Contains(got, "zz") || strings.Contains(got, "left") {
		t.Fatalf("a one-cell change on the small screen wrote %q", got)
	}

	// A frame with less text clears what the last one had there, though
	// the buffer it borrows may hold another program's cells.
	got = drawFrame(t, big, &bigOut, "left alone")
	if strings.Contains(got, "z") || strings.Contains(got, "left alone") {
		t.Fatalf("clearing a line wrote %q", got)
	}
	if len(got) == 0 {
		t.Fatal("a frame that drops a line wrote nothing: the line stays on screen")
	}
}
