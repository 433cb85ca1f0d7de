/** What the client keeps to itself: the translation of problem responses into exceptions. */
package dev.loci.client.internal;
