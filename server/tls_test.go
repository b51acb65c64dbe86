package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/grotto-game/grotto/internal/await"
)

// selfSigned writes a certificate for 127.0.0.1 and its key into dir and
// returns their paths.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, &tmpl, &tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return cert, key
}

// startNginx runs nginx with the hosting guide's site (docs/nginx) in
// front of upstream (grotto's --http), serving TLS on ln, a listener the
// test bound and keeps: nginx inherits it (the NGINX variable, as its
// binary upgrade does) instead of binding a port of its own.
func startNginx(t *testing.T, ln *net.TCPListener, upstream string) {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		bin = "/usr/sbin/nginx"
	}
	if _, err := os.Stat(bin); err != nil {
		if testing.Short() {
			t.Skip("nginx is not installed (apt-get install -y nginx-light); skipped under -short")
		}
		t.Fatal("nginx is not installed: apt-get install -y nginx-light (.ci/run installs it when missing); run with -short to skip")
	}
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	site, err := os.ReadFile(filepath.Join("..", "docs", "nginx", "grotto.conf"))
	if err != nil {
		t.Fatal(err)
	}
	conf := strings.NewReplacer("listen 443 ssl;", "listen "+ln.Addr().String()+" ssl;",
		"/etc/letsencrypt/live/play.example.org/fullchain.pem", cert,
		"/etc/letsencrypt/live/play.example.org/privkey.pem", key,
		"http://127.0.0.1:8080", "http://"+upstream).Replace(string(site))
	if !strings.Contains(conf, upstream) || !strings.Contains(conf, cert) {
		t.Fatalf("docs/nginx/grotto.conf no longer has the lines this test fills in:\n%s", conf)
	}
	os.WriteFile(filepath.Join(dir, "grotto.conf"), []byte(conf), 0o600)
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;" // the workers read this test's files
	}
	main := fmt.Sprintf(`%s
worker_processes 1;
daemon off;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log info;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path %[2]s/body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    include %[2]s/grotto.conf;
}
`, user, dir)
	os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o600)
	f, err := ln.File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	cmd.ExtraFiles = []*os.File{f} // fd 3
	cmd.Env = append(os.Environ(), "NGINX=3;")
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// SIGTERM: nginx's fast shutdown; a graceful one (SIGQUIT) would wait
	// for the browser's WebSockets, still open.
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	log := filepath.Join(dir, "error.log")
	if !await.Within(waitLong, func() bool {
		b, _ := os.ReadFile(log)
		return strings.Contains(string(b), "start worker process")
	}) {
		b, _ := os.ReadFile(log)
		t.Fatalf("nginx did not start:\n%s\n%s", out.String(), b)
	}
}

// The hosting guide's TLS front: nginx with docs/nginx/grotto.conf, grotto
// behind it with --http-url https://… and --http-trusted-proxy. A real
// Chromium reads the front page over TLS, watches a game (its WebSocket
// upgraded through nginx) and plays through a link `ssh host web` gave,
// which begins with the https address.
func TestThroughNginxABrowserWatchesAndPlaysOverTLS(t *testing.T) {
	ctx, _ := browserWith(t, chromedp.Flag("ignore-certificate-errors", true))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	front := "https://" + l.Addr().String()
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", HTTPURL: front, HTTPTrustedProxy: []string{"127.0.0.1"}})
	startNginx(t, l.(*net.TCPListener), srv.HTTPAddr().String())

	key := newKey(t)
	player := dial(t, addr, key, 100, 30)
	name := fmt.Sprintf("tls%d", names.Add(1))
	namedGame(t, player, name)
	rest(t, player, 2)

	if _, err := chromedp.Run(ctx, chromedp.Navigate(front+"/")); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.innerHTML"))
	if err != nil {
		t.Fatal(err)
	}
	m := watchLink.FindStringSubmatch(body)
	if m == nil || m[1] != name {
		t.Fatalf("the front page over TLS lists no game of %s:\n%s", name, body)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(front+m[4])); err != nil {
		t.Fatal(err)
	}
	readTerm(t, ctx, "Turn: 2") // the watch WebSocket, through nginx

	player.Send("S") // saved and left: the browser continues the game
	ended(t, player)
	link := webLinkOf(t, addr, key)
	if !strings.HasPrefix(link, front+"/play/") {
		t.Fatalf("ssh host web gave %q, want a link under %s", link, front)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	readTerm(t, ctx, "Continue")
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(".xterm-helper-textarea")), chromedp.KeyEvent("c")); err != nil {
		t.Fatal(err)
	}
	readTerm(t, ctx, "Turn: 2") // the play WebSocket, through nginx
}
