/** The JSON form Spring AI messages are stored in; not an API. */
package dev.loci.spring.ai.internal;
