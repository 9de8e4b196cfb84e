// Indirection cost, the baseline's accessors (put in front of indirection-cost.wgsl): the words are a
// plain storage buffer binding, read directly, as an application without the emulator reads them:
// as array<u32> for 4-byte loads, as array<vec4u> (the same buffer, read-only) for 16-byte loads.

@group(0) @binding(0) var<storage, read> words: array<u32>;
@group(0) @binding(1) var<storage, read_write> partials: array<u32>;
// x: the number of words to sum (a uniform, as the library's root constants are).
@group(0) @binding(2) var<uniform> params: vec4u;
@group(0) @binding(3) var<storage, read> vec4s: array<vec4u>;

fn word_count() -> u32 {
  return params.x;
}

fn load_word(i: u32) -> u32 {
  return words[i];
}

fn load_vec4(i: u32) -> vec4u {
  return vec4s[i];
}

alias PageRef = u32;

fn page_open(p: u32) -> PageRef {
  return p * 4096u;
}

fn page_load4(page: PageRef, j: u32) -> vec4u {
  return vec4s[page + j];
}

fn store_partial(i: u32, value: u32) {
  partials[i] = value;
}
