package mailer_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"switchyard/internal/mailer"
	"switchyard/internal/testenv"
)

// TestSend: a message reaches an SMTP server with PLAIN authentication,
// from the configured sender to the one recipient, as UTF-8 plain text
// with a MIME-encoded subject and CRLF lines; wrong credentials and a
// closed port are errors.
func TestSend(t *testing.T) {
	srv := testenv.StartSMTP(t, "mailer", "s3cret pass")
	m, err := mailer.New(srv.URL, "Switchyard <no-reply@shop.example>")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), "Zoë <zoe@shop.example>", "Your invitation to Café Zoë", "line one\nline two: https://x.example/a#b\n"); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1, 5*time.Second)[0]
	if got.From != "no-reply@shop.example" || got.User != "mailer" || len(got.To) != 1 || got.To[0] != "zoe@shop.example" {
		t.Fatalf("envelope: %+v", got)
	}
	for _, want := range []string{"From: \"Switchyard\" <no-reply@shop.example>\r\n", "Subject: =?utf-8?q?Your_invitation_to_Caf=C3=A9_Zo=C3=AB?=\r\n",
		"Content-Type: text/plain; charset=utf-8\r\n", "\r\n\r\nline one\r\nline two: https://x.example/a#b\r\n"} {
		if !strings.Contains(got.Data, want) {
			t.Errorf("the message lacks %q:\n%s", want, got.Data)
		}
	}

	wrong, err := mailer.New(strings.Replace(srv.URL, "s3cret%20pass", "wrong", 1), "no-reply@shop.example")
	if err != nil {
		t.Fatal(err)
	}
	if err := wrong.Send(context.Background(), "zoe@shop.example", "x", "y"); err == nil {
		t.Fatal("wrong credentials sent a message")
	}
	closed, err := mailer.New("smtp://"+testenv.FreeAddr(t), "no-reply@shop.example")
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Send(context.Background(), "zoe@shop.example", "x", "y"); err == nil {
		t.Fatal("a closed port took a message")
	}
	if _, err := mailer.New("http://mail.example", "no-reply@shop.example"); err == nil {
		t.Fatal("an http:// URL was taken")
	}
}
