/**
 * The one chart component: chart.js created on mount, updated in place when its data changes,
 * destroyed on cleanup. Every chart of the dashboard (share price, auction curve, research
 * report) is this component with a different configuration. The canvas keeps its height while
 * chart.js loads, so nothing moves when the chart appears.
 */
import type { Chart as ChartJs, ChartConfiguration } from 'chart.js'
import { createEffect, createSignal, onCleanup, onMount } from 'solid-js'

/** chart.js, fetched once on the first chart's mount. */
let chartJs: Promise<typeof import('./chartJs.js')> | undefined
const loadChartJs = () => (chartJs ??= import('./chartJs.js'))

export interface ChartProps {
  /** The chart.js configuration; read inside an effect, so a signal-backed accessor re-renders. */
  config: () => ChartConfiguration
  /** Accessible name of the canvas (what the chart shows, in words). */
  label: string
  height?: number
  testId?: string
  /**
   * Whether there is anything to draw yet (default: always). The chart is created once it turns
   * true, with its data, instead of empty and then again with the data.
   */
  ready?: () => boolean
}

export function Chart(props: ChartProps) {
  let canvas!: HTMLCanvasElement
  let chart: ChartJs | undefined

  let disposed = false
  const [loaded, setLoaded] = createSignal(false)

  const create = (ChartJs: typeof import('./chartJs.js').Chart) => {
    const created = new ChartJs(canvas, { ...props.config(), options: { animation: false, maintainAspectRatio: false, ...props.config().options } })
    // Without a 2D context (a test DOM, a browser refusing canvas) chart.js only logs; updating
    // such a chart would throw, so keep none and leave the labelled canvas as it is.
    chart = created.ctx ? created : undefined
    drawn = JSON.stringify(props.config().data)
    setLoaded(true)
  }

  const [module, setModule] = createSignal<typeof import('./chartJs.js')>()
  onMount(() => {
    void loadChartJs().then(async (m) => {
      // Drawing waits for a task of its own: chart.js's start-up and the first draw in one task
      // would hold the page unresponsive for longer than either does alone.
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (!disposed) setModule(() => m)
    })
  })
  let scheduled = false
  createEffect(() => {
    const m = module()
    if (m === undefined || scheduled || !(props.ready?.() ?? true)) return
    // The first draw also gets a task of its own, apart from the render that made it ready.
    scheduled = true
    setTimeout(() => {
      if (!disposed) create(m.Chart)
    }, 0)
  })

  // A refresh that brings the same points redraws nothing: chart.js resolves its options anew on
  // every update, which costs more than comparing the data.
  let drawn = ''
  createEffect(() => {
    const next = props.config()
    if (!loaded() || !chart) return
    const key = JSON.stringify(next.data)
    if (key === drawn) return
    drawn = key
    chart.data = next.data
    if (next.options) chart.options = { animation: false, maintainAspectRatio: false, ...next.options }
    chart.update('none')
  })

  onCleanup(() => {
    disposed = true
    chart?.destroy()
  })

  return (
    <div class="chart" style={{ height: `${props.height ?? 260}px` }}>
      <canvas ref={canvas} role="img" aria-label={props.label} data-testid={props.testId} />
    </div>
  )
}
