// Package printing owns the devices around the queue: ticket printers
// (ESC/POS over serial or TCP, the OS spooler, a diagnostic file), LED bars
// on serial ports, and the voice announcer.
//
// Every device sits behind a queue with its own worker, because of the rule
// that side effects never roll back or block the queue: the number is taken
// and committed first, then printed, shown and announced. A device that fails
// is retried (printers, LED bars) or skipped (voice), and its state is
// reported through Fault as one sentence for the staff. LED bars read
// their text off the live state the model's Follower keeps.
package printing
