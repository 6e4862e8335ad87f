package sqlstore

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// The per-branch secret under which ID and card numbers are hashed. It
// is made at random the first time a number is hashed and kept in
// branch_secret, so every PC of the branch hashes alike; a copy of the
// customer table without it cannot be matched against a list of ID
// numbers (the 10^10 or so valid ones would fall to a plain hash).

const customerSecretPurpose = "customer_key"

// customerKey is the branch's secret, read or made once per store. Two
// PCs making it at once both insert-ignore and read back the one kept.
func (s *GormStore) customerKey(ctx context.Context) ([]byte, error) {
	if k := s.custKey.Load(); k != nil {
		return *k, nil
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("customer secret: %w", err)
	}
	db := s.db.WithContext(ctx)
	if err := s.d.insertIgnore(db, "branch_secret", []string{"branch_id", "purpose", "value"},
		[]any{s.branchID, customerSecretPurpose, hex.EncodeToString(fresh)}); err != nil {
		return nil, s.wrap(fmt.Errorf("customer secret: %w", err))
	}
	var rows []branchSecretRow
	if err := db.Where("branch_id = ? AND purpose = ?", s.branchID, customerSecretPurpose).Find(&rows).Error; err != nil {
		return nil, s.wrap(fmt.Errorf("customer secret: %w", err))
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("customer secret: not kept")
	}
	k, err := hex.DecodeString(rows[0].Value)
	if err != nil || len(k) < 16 {
		return nil, fmt.Errorf("customer secret: unreadable")
	}
	s.custKey.Store(&k)
	return k, nil
}

// keyHash is a normalized number's keyed hash as stored.
func keyHash(key []byte, number string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(number))
	return hex.EncodeToString(m.Sum(nil))
}
