import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { passwordSpecialPattern, passwordSpecials } from './values.ts'

test('the specials pattern matches exactly the password specials among printable ASCII', () => {
  for (let c = 0x21; c < 0x7f; c++) {
    const ch = String.fromCharCode(c)
    assert.is(passwordSpecialPattern.test(ch), passwordSpecials.includes(ch), ch)
  }
})

test.run()
