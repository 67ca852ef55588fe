import { describe, expect, it } from '@jest/globals';
import { findClosest } from '../../src/text/find-closest.js';

describe('findClosest', () => {
  const names = ['prod-east', 'prod-west', 'lab', 'staging-eu-1'];
  it('finds typos (a letter wrong, missing, or two swapped) and prefixes, nearest first', () => {
    expect(findClosest('prod-eats', names)).toEqual(['prod-east', 'prod-west']);
    expect(findClosest('prod-est', names)).toEqual(['prod-east', 'prod-west']);
    expect(findClosest('stag', names)).toEqual(['staging-eu-1']);
    expect(findClosest('ectd', ['etcd', 'nodes'])).toEqual(['etcd']);
  });
  it('suggests nothing for a word unlike every candidate', () => {
    expect(findClosest('kubernetes', names)).toEqual([]);
    expect(findClosest('prod-north', names)).toEqual([]);
  });
});
