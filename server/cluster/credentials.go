package cluster

// This file: the channel's trust, from the cluster's secret: a certificate
// authority that every node derives alike, each node's own certificate,
// and the TLS configurations of a server and of a client.

import (
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// MinSecret is the shortest secret [NewCredentials] accepts, in bytes.
const MinSecret = 32

// caInfo is the HKDF info of the authority's key (RFC 5869, 3.2): a new
// scheme gets a new string, so it derives another key.
const caInfo = "grotto cluster CA v1"

// caFrom and caUntil bound the authority's validity, fixed so that every
// node builds the same certificate (Ed25519 signatures are deterministic,
// RFC 8032, 5.1.6), and so does every node's: the certificates live only in
// the nodes' memory, and only the secret's holders can make one.
var (
	caFrom  = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	caUntil = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// Credentials are a node's identity on the channel: the cluster's
// authority, derived from the secret, and the node's own certificate,
// signed by it. Make them once at start with [NewCredentials].
type Credentials struct {
	node string
	pool *x509.CertPool // the authority alone
	ca   *x509.Certificate
	cert tls.Certificate // the node's own, with its private key
}

// NewCredentials derives the cluster's authority from secret (at least
// [MinSecret] bytes, store.Cluster.ClusterSecret's) and makes this node's
// certificate: a fresh Ed25519 key, the common name node, for both ends of
// a connection, signed by the authority.
//
// The authority's key is ed25519.NewKeyFromSeed(HKDF-SHA256(secret, no
// salt, info "grotto cluster CA v1")) (RFC 5869; RFC 8032), so every node
// with the same secret has the same one, and nobody without it can sign.
// Errors: a short secret, an empty node name.
func NewCredentials(secret []byte, node string) (*Credentials, error) {
	if len(secret) < MinSecret {
		return nil, fmt.Errorf("cluster credentials: a secret of %d bytes, want at least %d", len(secret), MinSecret)
	}
	if node == "" {
		return nil, errors.New("cluster credentials: an empty node name")
	}
	ca, caKey, err := authority(secret)
	if err != nil {
		return nil, err
	}
	leafDER, leaf, key, err := nodeCertificate(node, ca, caKey)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return &Credentials{
		node: node,
		pool: pool,
		ca:   ca,
		cert: tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: key, Leaf: leaf},
	}, nil
}

// authority is the cluster's certificate authority derived from secret
// (see NewCredentials), with its private key.
func authority(secret []byte) (*x509.Certificate, ed25519.PrivateKey, error) {
	seed, err := hkdf.Key(sha256.New, secret, nil, caInfo, ed25519.SeedSize)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster credentials: %w", err)
	}
	caKey := ed25519.NewKeyFromSeed(seed)
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "grotto cluster CA"},
		NotBefore:             caFrom,
		NotAfter:              caUntil,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(nil, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster credentials: the authority: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster credentials: the authority: %w", err)
	}
	return ca, caKey, nil
}

// nodeCertificate makes node's certificate, a fresh Ed25519 key signed by
// the authority ca (caKey) for both ends of a connection: its DER, parsed,
// and its private key.
func nodeCertificate(node string, ca *x509.Certificate, caKey ed25519.PrivateKey) ([]byte, *x509.Certificate, ed25519.PrivateKey, error) {
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cluster credentials: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cluster credentials: %w", err)
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: serial.Add(serial, big.NewInt(2)), // never the authority's 1
		Subject:      pkix.Name{CommonName: node},
		NotBefore:    caFrom,
		NotAfter:     caUntil,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	leafDER, err := x509.CreateCertificate(nil, leafTmpl, ca, pub, caKey)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cluster credentials: node %q: %w", node, err)
	}
	leaf, err := x509.ParseCertificate(leafDER)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cluster credentials: node %q: %w", node, err)
	}
	return leafDER, leaf, key, nil
}

// Node returns the node these credentials name.
func (c *Credentials) Node() string { return c.node }

// serverConfig is the TLS configuration of this node's listener: TLS 1.3,
// a client certificate required and verified against the authority
// (crypto/tls, RequireAndVerifyClientCert).
func (c *Credentials) serverConfig() *tls.Config {
	return &tls.Config{
		MinVersion:   tls.VersionTLS13,
		Certificates: []tls.Certificate{c.cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    c.pool,
		NextProtos:   []string{"h2"},
	}
}

// errWrongNode is returned by a client's handshake with a node whose
// certificate, signed by the authority, names another node.
var errWrongNode = errors.New("its certificate names another node")

// clientConfig is the TLS configuration of a connection to node: TLS 1.3,
// this node's certificate, and the server's verified against the
// authority and its common name against node. Addresses may be IPs, so the
// name is checked in VerifyConnection rather than through ServerName
// (crypto/tls, the Config.VerifyConnection example).
func (c *Credentials) clientConfig(node string) *tls.Config {
	return &tls.Config{
		MinVersion:         tls.VersionTLS13,
		Certificates:       []tls.Certificate{c.cert},
		NextProtos:         []string{"h2"},
		InsecureSkipVerify: true, // verified below, against the authority alone
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("the node sent no certificate")
			}
			// No intermediates: the authority signs every node's own.
			opts := x509.VerifyOptions{Roots: c.pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
			leaf := cs.PeerCertificates[0]
			if _, err := leaf.Verify(opts); err != nil {
				return err
			}
			if leaf.Subject.CommonName != node {
				return fmt.Errorf("%w: %q, not %q", errWrongNode, leaf.Subject.CommonName, node)
			}
			return nil
		},
	}
}

// Certificate returns this node's certificate and key, as the node
// presents them on the channel.
func (c *Credentials) Certificate() tls.Certificate { return c.cert }
