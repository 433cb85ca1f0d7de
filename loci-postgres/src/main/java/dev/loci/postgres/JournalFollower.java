package dev.loci.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The thread behind {@link PostgresJournal#follow}: listens for the notification each append sends
 * ({@code LISTEN loci_batch}) and asks for the head once per poll interval as the fallback for a
 * lost notification; whenever the head is past what the journal has seen it runs the catch-up. It
 * waits in short slices, so closing it never waits for a long poll to end.
 */
final class JournalFollower implements Runnable, AutoCloseable {
  private static final long WAIT_SLICE_MS = 250;

  /** The longest wait between two tries to catch up while this server's writers hold the engine. */
  private static final long BUSY_WAIT_MAX_MS = 8;

  private static final System.Logger LOG = System.getLogger(PostgresJournal.class.getName());

  private final PostgresJournal journal;
  private final Runnable onNewBatches;
  private final Duration poll;
  private volatile boolean stopped;
  private volatile Thread thread;

  JournalFollower(PostgresJournal journal, Runnable onNewBatches, Duration poll) {
    this.journal = journal;
    this.onNewBatches = onNewBatches;
    this.poll = poll;
  }

  void start() {
    Thread t = new Thread(this, "loci-journal-follow");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  @Override
  public void run() {
    while (!stopped && !journal.isClosed()) {
      try (Connection c = journal.pool().getConnection()) {
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN loci_batch");
        }
        PGConnection pg = c.unwrap(PGConnection.class);
        long nextPoll = System.nanoTime() + poll.toNanos();
        while (!stopped && !journal.isClosed()) {
          // wait in short slices, so that closing never waits for a long poll to end
          long left = Math.max(1, (nextPoll - System.nanoTime()) / 1_000_000);
          PGNotification[] notes = pg.getNotifications((int) Math.min(left, WAIT_SLICE_MS));
          long head = 0;
          if (notes != null) {
            for (PGNotification n : notes) {
              head = Math.max(head, parseSeq(n.getParameter()));
            }
          }
          if (head == 0) {
            if (System.nanoTime() < nextPoll) {
              continue;
            }
            head = headOf(c); // the poll is due: notifications may have been lost
          }
          nextPoll = System.nanoTime() + poll.toNanos();
          journal.sawHead(head);
          journal.setUnavailable(Optional.empty()); // the database answered
          if (head > journal.durableSeq()) {
            onNewBatches.run();
          }
          // the writers were busy: they catch up themselves before each round, or we do next,
          // trying again after 1, 2, 4 and then every 8 ms (every millisecond cost CPU for nothing
          // while this server writes)
          for (long wait = 1;
              head > journal.durableSeq() && !stopped && !journal.isClosed();
              wait = Math.min(2 * wait, BUSY_WAIT_MAX_MS)) {
            Thread.sleep(wait);
            onNewBatches.run();
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (SQLException | RuntimeException e) {
        if (stopped || journal.isClosed()) {
          return;
        }
        journal.setUnavailable(Optional.of("the database cannot be reached: " + e.getMessage()));
        LOG.log(
            System.Logger.Level.WARNING,
            "following " + journal.description() + ": " + e.getMessage() + "; retrying in " + poll);
        try {
          Thread.sleep(poll.toMillis());
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    stopped = true;
    Thread t = thread;
    if (t != null) {
      t.interrupt();
      try {
        t.join(Math.min(poll.toMillis(), WAIT_SLICE_MS) + 5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    journal.unfollow(this);
  }

  private static long parseSeq(String payload) {
    try {
      return Long.parseLong(payload);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static long headOf(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT COALESCE(MAX(seq), 0) FROM loci_batch")) {
      r.next();
      return r.getLong(1);
    }
  }
}
