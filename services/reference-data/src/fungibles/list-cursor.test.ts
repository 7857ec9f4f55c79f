import { decodeCursor, encodeCursor } from './list-cursor.js';

describe('list cursor', () => {
  test('round trip', () => {
    expect(decodeCursor(encodeCursor({ offset: 300, generation: 7 }))).toEqual({ offset: 300, generation: 7 });
  });
  test.each(['', 'abc', 'f1.', 'f1.!!!', `f1.${Buffer.from('-1:2').toString('base64url')}`, `f1.${Buffer.from('1:2:3').toString('base64url')}`])(
    '%j is refused',
    (text) => {
      expect(() => decodeCursor(text)).toThrow(/page\[after\]/);
    },
  );
});
