package dev.loci.internal;

import dev.loci.Namespace;
import dev.loci.spi.Command;
import dev.loci.spi.CommandContext;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/** A command queued for the engine's combiner, and then its outcome. */
final class WriteTask<R> {
  final Namespace namespace;
  final String actor;
  final Command<R> command;
  final Thread caller = Thread.currentThread();
  private volatile boolean done;
  private R result;
  private Throwable error;

  WriteTask(Namespace namespace, String actor, Command<R> command) {
    this.namespace = namespace;
    this.actor = actor;
    this.command = command;
  }

  boolean done() {
    return done;
  }

  void complete(Object value) {
    @SuppressWarnings("unchecked")
    R r = (R) value;
    result = r;
    done = true;
    wake();
  }

  /** Wakes the caller, unless it is the combiner that completes it (it is running). */
  private void wake() {
    if (caller != Thread.currentThread()) {
      LockSupport.unpark(caller);
    }
  }

  void fail(Throwable e) {
    if (done) {
      return;
    }
    error = e;
    done = true;
    wake();
  }

  R outcome() {
    if (error instanceof RuntimeException e) {
      throw e;
    }
    if (error instanceof Error e) {
      throw e;
    }
    return result;
  }

  /** What a command sees while it is decided: the round's time, and ids minted at that time. */
  record Context(Instant now, UuidV7 ids) implements CommandContext {
    @Override
    public String newId() {
      return ids.next(now).toString();
    }
  }
}
