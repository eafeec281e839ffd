import { useState } from 'react'
import { PinInput } from '../index.ts'

/** An empty code and a wrong one. */
export default function PinInputStates() {
  const [code, setCode] = useState('')
  const [wrong, setWrong] = useState('000000')
  const boxLabel = (i: number, n: number) => `Digit ${i + 1} of ${n}`
  return (
    <form noValidate>
      <PinInput label="Verification code" boxLabel={boxLabel} value={code} onValueChange={setCode} />
      <PinInput label="OTP" boxLabel={boxLabel} value={wrong} onValueChange={setWrong} error="Wrong OTP" />
    </form>
  )
}
